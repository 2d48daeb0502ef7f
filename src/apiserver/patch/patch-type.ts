/**
 * The PATCH body's Content-Type decoded to one of the four patch types
 * kube-apiserver accepts (`handlers/patch.go`); parameters such as
 * `; charset=utf-8` are ignored.
 */

export type PatchType = "json" | "merge" | "strategic" | "apply";

const PATCH_TYPES = new Map<string, PatchType>([
  ["application/json-patch+json", "json"],
  ["application/merge-patch+json", "merge"],
  ["application/strategic-merge-patch+json", "strategic"],
  ["application/apply-patch+yaml", "apply"],
]);

export function decodePatchType(contentType: string): PatchType | undefined {
  const media = contentType.split(";", 1)[0]?.trim().toLowerCase() ?? "";
  return PATCH_TYPES.get(media);
}
