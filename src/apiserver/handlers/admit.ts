/**
 * The checks and server-owned fields of every write, shared by create, update and
 * patch: envelope and name rules, schema (types, unknown fields per
 * fieldValidation, defaults, pruning), kind-specific validation, uid, timestamps,
 * generation, managedFields, and the finalizer rules of objects being deleted.
 */

import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import {
  BadRequestError,
  dns1123Label,
  dns1123Subdomain,
  type FieldError,
  InvalidError,
  invalidValue,
  isObject,
  type KubeObject,
  pathSegmentName,
  requiredValue,
  rfc3339,
} from "../../api/index.js";
import { updateManagedFields } from "../patch/index.js";
import { apiVersionOf, type ResourceType } from "../resources/resource-type.js";
import {
  checkObject,
  defaultInPlace,
  pruneUnknownFields,
  strictDecodingMessage,
  uncovered,
} from "../validation/index.js";
import { fieldValidation, type RequestContext } from "./context.js";
import {
  immutableMetadataErrors,
  managedFieldsErrors,
  validateMetadata,
} from "./metadata-rules.js";
import { fieldManager } from "./request-options.js";

/** Checks the body is an object of this resource's kind; fills apiVersion/kind if absent. */
export function checkEnvelope(ctx: RequestContext, body: unknown): KubeObject {
  const t = ctx.type;
  if (!isObject(body))
    throw new BadRequestError(
      `Object 'Kind' is missing in '${JSON.stringify(body).slice(0, 200)}'`,
    );
  const expected = apiVersionOf(t);
  if (body.kind === undefined || body.kind === "")
    throw new BadRequestError(
      `Object 'Kind' is missing in '${JSON.stringify(body).slice(0, 200)}'`,
    );
  if (body.apiVersion !== expected || body.kind !== t.kind) {
    throw new BadRequestError(
      `the API version in the data (${String(body.apiVersion)}) does not match the expected API version (${expected})`,
    );
  }
  if (body.metadata !== undefined && !isObject(body.metadata)) {
    throw new BadRequestError(
      `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}: metadata must be an object`,
    );
  }
  const obj = body as KubeObject;
  obj.metadata = (body.metadata as KubeObject["metadata"]) ?? {};
  const urlNamespace = ctx.info.namespace;
  if (t.namespaced) {
    if (
      obj.metadata.namespace !== undefined &&
      obj.metadata.namespace !== "" &&
      obj.metadata.namespace !== urlNamespace
    ) {
      throw new BadRequestError(
        "the namespace of the provided object does not match the namespace sent on the request",
      );
    }
    obj.metadata.namespace = urlNamespace;
  } else {
    delete obj.metadata.namespace;
  }
  return obj;
}

/** Schema errors a built-in kind reports at validation (422), not at decoding (400). */
const VALIDATION_REASONS = new Set(["FieldValueNotSupported", "FieldValueRequired"]);

/**
 * Schema checks; returns the pruned, defaulted object. Unknown fields per fieldValidation.
 * A built-in kind's enum violations and missing required fields go to `deferred`
 * (validation reports them with its own, as a 422) or, without it, are thrown at
 * once as a 422.
 */
export function checkSchema(
  ctx: RequestContext,
  obj: KubeObject,
  deferred?: FieldError[],
): KubeObject {
  const t = ctx.type;
  const mode = fieldValidation(ctx.query);
  const { errors, unknownFields } = checkObject(obj, t.schema, { strict: mode !== "Ignore" });
  if (errors.length > 0) {
    if (!t.strategicMergePatch)
      throw new InvalidError({ group: t.group, kind: t.kind, name: obj.metadata.name }, errors);
    // Built-in kinds fail at decoding, as kube-apiserver's typed decoder does, but
    // that decoder knows no enums and no required fields (an absent field decodes
    // as its zero value): a value outside an enum or a missing field is its
    // validation's 422.
    const decoding = errors.find((e) => !VALIDATION_REASONS.has(e.reason));
    if (decoding)
      throw new BadRequestError(
        `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}: ${decoding.field}: ${decoding.detail}`,
      );
    if (!deferred)
      throw new InvalidError({ group: t.group, kind: t.kind, name: obj.metadata.name }, errors);
    deferred.push(...errors);
  }
  if (unknownFields.length > 0) {
    if (mode === "Strict")
      throw new BadRequestError(strictDecodingMessage(t.kind, t.version, unknownFields));
    if (mode === "Warn") for (const f of unknownFields) ctx.warnings.push(`unknown field "${f}"`);
  }
  const pruned = pruneUnknownFields(obj, t.schema);
  defaultInPlace(pruned, t.schema);
  return pruned;
}

export function nameErrors(t: ResourceType, name: string): string[] {
  switch (t.nameRule) {
    case "dns1123-label":
      return dns1123Label(name);
    case "dns1123-subdomain":
      return dns1123Subdomain(name);
    default:
      return pathSegmentName(name);
  }
}

function validate(
  ctx: RequestContext,
  obj: KubeObject,
  old: KubeObject | undefined,
  errors: FieldError[] = [],
  schemaErrors: FieldError[] = [],
): void {
  const t = ctx.type;
  const name = obj.metadata.name;
  if (!name) errors.push(requiredValue("metadata.name", "name or generateName is required"));
  else if (!old)
    for (const why of nameErrors(t, name)) errors.push(invalidValue("metadata.name", name, why));
  const kindErrors = t.validate?.(obj, old) ?? [];
  // The kind's own errors about a missing field (kube's wording) replace the schema's.
  errors.push(...validateMetadata(obj, old), ...uncovered(schemaErrors, kindErrors), ...kindErrors);
  if (errors.length > 0)
    throw new InvalidError({ group: t.group, kind: t.kind, name: name ?? "" }, errors);
}

const GENERATE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

export function generateName(prefix: string): string {
  let suffix = "";
  for (let i = 0; i < 5; i++)
    suffix += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return `${prefix}${suffix}`;
}

/** Turns a decoded body into the object to store on create. */
export function admitCreate(
  ctx: RequestContext,
  body: KubeObject,
  opts: { keepManagedFields?: boolean } = {},
): KubeObject {
  const t = ctx.type;
  const deferredErrors: FieldError[] = [];
  const obj = checkSchema(ctx, body, deferredErrors);
  const meta = obj.metadata;
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  meta.uid = randomUUID();
  meta.creationTimestamp = rfc3339();
  meta.generation = 1;
  if (t.status) delete obj.status;
  t.prepareForCreate?.(obj);
  validate(ctx, obj, undefined, [], deferredErrors);
  return checkManagedFields(
    ctx,
    opts.keepManagedFields ? obj : withManagedFields(ctx, undefined, obj),
  );
}

/**
 * The managedFields about to be stored, checked as kube's `ValidateObjectMeta`
 * does: a request may carry its own valid entries, whose manager names must then
 * pass the field-manager rule.
 */
function checkManagedFields(ctx: RequestContext, obj: KubeObject): KubeObject {
  const errors = managedFieldsErrors(obj);
  if (errors.length > 0)
    throw new InvalidError(
      { group: ctx.type.group, kind: ctx.type.kind, name: obj.metadata.name ?? "" },
      errors,
    );
  return obj;
}

/**
 * Turns the new state of an update (PUT or a patch result) into the object to
 * store, keeping server-owned fields of `old`. `subresource` is "status" for
 * status writes.
 */
export function admitUpdate(
  ctx: RequestContext,
  next: KubeObject,
  old: KubeObject,
  opts: { keepManagedFields?: boolean } = {},
): KubeObject {
  const t = ctx.type;
  const deferredErrors: FieldError[] = [];
  let obj = checkSchema(ctx, next, deferredErrors);
  const meta = obj.metadata;
  if (meta.name !== old.metadata.name) {
    throw new BadRequestError(
      `the name of the object (${meta.name}) does not match the name on the URL (${old.metadata.name})`,
    );
  }
  // Checked on what the request sent, before the stored values are copied in.
  const immutableErrors = immutableMetadataErrors(obj, old);
  meta.uid = old.metadata.uid;
  meta.creationTimestamp = old.metadata.creationTimestamp;
  meta.generation = old.metadata.generation ?? 1;
  if (old.metadata.deletionTimestamp) {
    meta.deletionTimestamp = old.metadata.deletionTimestamp;
    meta.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
  } else {
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
  }
  if (ctx.info.subresource === "status") {
    obj = { ...old, status: obj.status };
    if (obj.status === undefined) delete obj.status;
  } else if (t.status) {
    if (old.status === undefined) delete obj.status;
    else obj.status = old.status;
  }
  t.prepareForUpdate?.(obj, old);
  if (specChanged(obj, old, t)) obj.metadata.generation = (old.metadata.generation ?? 1) + 1;
  validate(ctx, obj, old, immutableErrors, deferredErrors);
  return checkManagedFields(ctx, opts.keepManagedFields ? obj : withManagedFields(ctx, old, obj));
}

function specChanged(obj: KubeObject, old: KubeObject, t: ResourceType): boolean {
  const strip = (o: KubeObject) => {
    const { metadata: _m, status: s, ...rest } = o;
    return t.status ? rest : { ...rest, status: s };
  };
  return !isDeepStrictEqual(strip(obj), strip(old));
}

function withManagedFields(
  ctx: RequestContext,
  old: KubeObject | undefined,
  obj: KubeObject,
): KubeObject {
  const t = ctx.type;
  return updateManagedFields({
    old,
    updated: obj,
    manager: fieldManager(ctx),
    operation: "Update",
    schema: t.schema,
    apiVersion: apiVersionOf(t),
    now: rfc3339(),
    ...(ctx.info.subresource ? { subresource: ctx.info.subresource } : {}),
  });
}
