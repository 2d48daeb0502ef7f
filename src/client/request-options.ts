/**
 * How client options travel on the wire: write options as query parameters,
 * delete options as a `DeleteOptions` body, patch types as content types.
 */
import type { DeleteOptions, PatchType, WriteOptions } from "./interface.js";

export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: "application/merge-patch+json",
  json: "application/json-patch+json",
  strategic: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
};

export function writeQuery(opts: WriteOptions): Record<string, string | undefined> {
  return { fieldManager: opts.fieldManager, dryRun: opts.dryRun ? "All" : undefined };
}

/**
 * The body of a DELETE. Sent even when empty of options: the apiserver reads
 * DeleteOptions from the query only when the body is empty, and kubectl always
 * sends one.
 */
export function deleteBody(opts: DeleteOptions): Record<string, unknown> {
  const { dryRun, ...rest } = opts;
  return {
    kind: "DeleteOptions",
    apiVersion: "v1",
    ...rest,
    ...(dryRun ? { dryRun: ["All"] } : {}),
  };
}
