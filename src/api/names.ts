/**
 * Name rules of apimachinery `util/validation`: DNS-1123 labels and subdomains,
 * label keys and values. Each check returns the messages kube-apiserver uses, empty
 * when the value is valid.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;

export function dns1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_LABEL_MAX)
    errs.push(`must be no more than ${DNS1123_LABEL_MAX} characters`);
  if (!DNS1123_LABEL.test(value)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

export function dns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX)
    errs.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errs;
}

/** Path-segment names (most kinds): anything not `.`/`..` and without `/` or `%`. */
export function pathSegmentName(value: string): string[] {
  if (value === "." || value === "..") return [`may not be '${value}'`];
  for (const bad of ["/", "%"]) if (value.includes(bad)) return [`may not contain '${bad}'`];
  return [];
}

const QUALIFIED_NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

/**
 * apimachinery's `IsQualifiedName` (label and annotation keys, finalizer names):
 * an optional DNS subdomain prefix and `/`, then a name of at most 63 characters.
 */
export function qualifiedName(value: string): string[] {
  const parts = value.split("/");
  if (parts.length > 2)
    return [
      `a qualified name ${QUALIFIED_NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const errs: string[] = [];
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else errs.push(...dns1123Subdomain(prefix).map((e) => `prefix part ${e}`));
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (name.length > 63) errs.push("name part must be no more than 63 characters");
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${QUALIFIED_NAME_RULE}`);
  return errs;
}

export function labelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push("must be no more than 63 characters");
  if (!LABEL_VALUE.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

/** Total size of all annotations, as apimachinery limits it. */
export const ANNOTATIONS_MAX_BYTES = 256 * 1024;

const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * A ConfigMap or Secret key (apimachinery `IsConfigMapKey`): at most 253 characters of
 * alphanumerics, `-`, `_` and `.`, and not `.`, `..` or anything starting with `..`.
 * These keys become file names in volumes, so the rule is what keeps them inside one.
 */
export function configMapKey(value: string): string[] {
  const errs: string[] = [];
  // Go's len() counts bytes.
  if (Buffer.byteLength(value) > DNS1123_SUBDOMAIN_MAX)
    errs.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX} characters`);
  if (!CONFIG_MAP_KEY.test(value)) {
    errs.push(
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
  }
  if (value === ".") errs.push("must not be '.'");
  else if (value === "..") errs.push("must not be '..'");
  else if (value.startsWith("..")) errs.push("must not start with '..'");
  return errs;
}
