/**
 * DeleteOptions of a DELETE or DELETE-collection, read and checked before anything
 * is read or written, as kube-apiserver does: from the body when there is one
 * (JSON, YAML or protobuf; any apiVersion, kind `DeleteOptions` or none — the
 * query is then not read), otherwise from the query string (`gracePeriodSeconds`
 * must parse as an int64, `orphanDependents` as kube's lenient bool). Then
 * `ValidateDeleteOptions`: `propagationPolicy` and `orphanDependents` not both,
 * a known policy, `dryRun` only `All`. A body of another kind or with a field of
 * the wrong type is a 400 (kube answers those with whatever its decoder says,
 * some of them 500s; Hearth never does), a rule broken a 422.
 */
import { BadRequestError, type FieldError, InvalidError, isObject } from "../../api/index.js";
import { decodeBody, readBodyBytes } from "../http/body.js";
import type { RequestContext } from "./context.js";
import { dryRunErrors } from "./request-options.js";

export type PropagationPolicy = "Background" | "Foreground" | "Orphan";

export interface DeleteOptions {
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  gracePeriodSeconds?: number;
  dryRun?: string[];
}

const POLICIES: readonly string[] = ["Foreground", "Background", "Orphan"];

/** Reads and checks the request's DeleteOptions; throws before any store access. */
export async function readDeleteOptions(ctx: RequestContext): Promise<DeleteOptions> {
  const bytes = await readBodyBytes(ctx.req);
  const opts = /\S/.test(bytes.toString("latin1"))
    ? fromBody(decodeBody(bytes, ctx.req.headers["content-type"]))
    : fromQuery(ctx.query);
  const errors = deleteOptionsErrors(opts);
  if (errors.length > 0)
    throw new InvalidError({ group: "meta.k8s.io", kind: "DeleteOptions" }, errors);
  return opts;
}

/** DeleteOptions carried inside another body (an Eviction's `deleteOptions`), decoded and checked. */
export function checkedDeleteOptions(body: unknown): DeleteOptions {
  const opts = fromBody(body);
  const errors = deleteOptionsErrors(opts);
  if (errors.length > 0)
    throw new InvalidError({ group: "meta.k8s.io", kind: "DeleteOptions" }, errors);
  return opts;
}

/** apimachinery `ValidateDeleteOptions`. */
export function deleteOptionsErrors(opts: DeleteOptions): FieldError[] {
  const errors: FieldError[] = [];
  const policy = opts.propagationPolicy;
  if (opts.orphanDependents !== undefined && policy !== undefined)
    errors.push({
      reason: "FieldValueInvalid",
      field: "propagationPolicy",
      detail: `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`,
    });
  if (policy !== undefined && !POLICIES.includes(policy))
    errors.push({
      reason: "FieldValueNotSupported",
      field: "propagationPolicy",
      detail: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"`,
    });
  errors.push(...dryRunErrors(opts.dryRun ?? []));
  return errors;
}

/** The policy the options ask for: `orphanDependents` is the old spelling of Orphan/Background. */
export function propagationOf(opts: DeleteOptions): PropagationPolicy | undefined {
  if (opts.orphanDependents !== undefined) return opts.orphanDependents ? "Orphan" : "Background";
  return opts.propagationPolicy as PropagationPolicy | undefined;
}

/** Go's strconv.ParseInt(s, 10, 64), with its error text. */
function parseInt64(s: string): number {
  if (!/^[+-]?\d+$/.test(s))
    throw new BadRequestError(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > 2n ** 63n - 1n || n < -(2n ** 63n))
    throw new BadRequestError(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
  return Number(n);
}

/** kube's `Convert_Slice_string_To_Pointer_bool`: only "false" and "0" are false. */
function lenientBool(s: string): boolean {
  const v = s.toLowerCase();
  return v !== "false" && v !== "0";
}

function fromQuery(query: URLSearchParams): DeleteOptions {
  const opts: DeleteOptions = {};
  const grace = query.get("gracePeriodSeconds");
  if (grace !== null) opts.gracePeriodSeconds = parseInt64(grace);
  const orphan = query.get("orphanDependents");
  if (orphan !== null) opts.orphanDependents = lenientBool(orphan);
  const policy = query.get("propagationPolicy");
  if (policy !== null) opts.propagationPolicy = policy;
  const dryRun = query.getAll("dryRun");
  if (dryRun.length > 0) opts.dryRun = dryRun;
  return opts;
}

/** The JSON type word of Go's UnmarshalTypeError. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return "array";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number" || typeof v === "bigint") return "number";
  return typeof v === "string" ? "string" : "object";
}

function typeError(value: unknown, field: string, goType: string): BadRequestError {
  const what = typeof value === "number" ? `number ${value}` : jsonType(value);
  return new BadRequestError(
    `json: cannot unmarshal ${what} into Go struct field DeleteOptions.${field} of type ${goType}`,
  );
}

function optionalString(
  body: Record<string, unknown>,
  key: string,
  at: string,
  goType = "string",
): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw typeError(v, at, goType);
  return v;
}

function fromBody(body: unknown): DeleteOptions {
  if (!isObject(body))
    throw new BadRequestError(
      `json: cannot unmarshal ${jsonType(body)} into Go value of type v1.DeleteOptions`,
    );
  const kind = body.kind;
  const apiVersion = body.apiVersion;
  if (
    (kind !== undefined && typeof kind !== "string") ||
    (apiVersion !== undefined && typeof apiVersion !== "string")
  )
    throw new BadRequestError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(typeof kind !== "string" ? kind : apiVersion)} into Go struct field .${typeof kind !== "string" ? "kind" : "apiVersion"} of type string`,
    );
  if (kind !== undefined && kind !== "" && kind !== "DeleteOptions")
    throw new BadRequestError(
      `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion ?? "")}: the body of a delete must be DeleteOptions`,
    );
  const opts: DeleteOptions = {};
  const grace = body.gracePeriodSeconds;
  if (grace !== undefined && grace !== null) {
    const n = typeof grace === "bigint" ? Number(grace) : grace;
    if (typeof n !== "number" || !Number.isSafeInteger(n))
      throw typeError(grace, "gracePeriodSeconds", "int64");
    opts.gracePeriodSeconds = n;
  }
  const orphan = body.orphanDependents;
  if (orphan !== undefined && orphan !== null) {
    if (typeof orphan !== "boolean") throw typeError(orphan, "orphanDependents", "bool");
    opts.orphanDependents = orphan;
  }
  const policy = optionalString(
    body,
    "propagationPolicy",
    "propagationPolicy",
    "v1.DeletionPropagation",
  );
  if (policy !== undefined) opts.propagationPolicy = policy;
  const dryRun = body.dryRun;
  if (dryRun !== undefined && dryRun !== null) {
    if (!Array.isArray(dryRun)) throw typeError(dryRun, "dryRun", "[]string");
    for (const v of dryRun) if (typeof v !== "string") throw typeError(v, "dryRun", "string");
    opts.dryRun = dryRun as string[];
  }
  const pre = body.preconditions;
  if (pre !== undefined && pre !== null) {
    if (!isObject(pre)) throw typeError(pre, "preconditions", "v1.Preconditions");
    const uid = optionalString(pre, "uid", "preconditions.uid", "types.UID");
    const resourceVersion = optionalString(pre, "resourceVersion", "preconditions.resourceVersion");
    opts.preconditions = {
      ...(uid !== undefined ? { uid } : {}),
      ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    };
  }
  const ignore = body.ignoreStoreReadErrorWithClusterBreakingPotential;
  if (ignore !== undefined && ignore !== null && typeof ignore !== "boolean")
    throw typeError(ignore, "ignoreStoreReadErrorWithClusterBreakingPotential", "bool");
  return opts;
}
