/**
 * Namespace validation, as kube-apiserver's `ValidateNamespace` and
 * `ValidateNamespaceFinalizeUpdate`: each name in `spec.finalizers` is a
 * qualified name, and one without a domain prefix must be a standard finalizer
 * (`kubernetes`, `orphan`, `foregroundDeletion`). A namespace whose finalizer
 * nobody removes never finishes deleting, so a name nothing owns is refused.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../../api/index.js";
import { type FieldError, invalidValue, qualifiedName } from "../../api/index.js";

const STANDARD_FINALIZERS = new Set(["kubernetes", "orphan", "foregroundDeletion"]);

/** apimachinery `ValidateFinalizerName` plus core's rule for names without a `/`. */
export function finalizerNameErrors(name: string, field: string): FieldError[] {
  const errors = qualifiedName(name).map((why) => invalidValue(field, name, why));
  if (!name.includes("/") && !STANDARD_FINALIZERS.has(name))
    errors.push(
      invalidValue(
        field,
        name,
        "name is neither a standard finalizer name nor is it fully qualified",
      ),
    );
  return errors;
}

const finalizersOf = (o: KubeObject): unknown[] =>
  ((o.spec as { finalizers?: unknown[] } | undefined)?.finalizers ?? []).slice();

/**
 * On create every name is checked at `spec.finalizers` (kube's path has no
 * index there); on update (which only `finalize` can make change the list) at
 * `spec.finalizers[i]`, and only when the list changed, so an object stored
 * before these rules can still be finalized as it is.
 */
export function validateNamespace(obj: KubeObject, old: KubeObject | undefined): FieldError[] {
  const finalizers = finalizersOf(obj);
  if (old && isDeepStrictEqual(finalizers, finalizersOf(old))) return [];
  return finalizers.flatMap((f, i) =>
    finalizerNameErrors(String(f), old ? `spec.finalizers[${i}]` : "spec.finalizers"),
  );
}
