/**
 * Event filters in controller-runtime's shape: each predicate may veto a
 * create, update or delete before it turns into a request; an omitted method
 * lets the event through. A source passes an event only when every predicate
 * does. As in controller-runtime, the "changed" predicates filter updates only:
 * a create or delete always passes.
 */
import { isDeepStrictEqual } from "node:util";
import type { KubeObject } from "../api/index.js";

export interface Predicate {
  create?(obj: KubeObject): boolean;
  update?(old: KubeObject, obj: KubeObject): boolean;
  delete?(obj: KubeObject): boolean;
}

/** Passes updates that change `metadata.generation` (spec changes, not status). */
export const generationChanged: Predicate = {
  update: (old, obj) => old.metadata.generation !== obj.metadata.generation,
};

export const labelsChanged: Predicate = {
  update: (old, obj) => !isDeepStrictEqual(old.metadata.labels ?? {}, obj.metadata.labels ?? {}),
};

export const annotationsChanged: Predicate = {
  update: (old, obj) =>
    !isDeepStrictEqual(old.metadata.annotations ?? {}, obj.metadata.annotations ?? {}),
};

/** Passes an update when any of `predicates` does (controller-runtime's `Or`). */
export function anyOf(...predicates: Predicate[]): Predicate {
  return {
    create: (obj) => predicates.some((p) => p.create?.(obj) ?? true),
    update: (old, obj) => predicates.some((p) => p.update?.(old, obj) ?? true),
    delete: (obj) => predicates.some((p) => p.delete?.(obj) ?? true),
  };
}

export type ObjectEvent =
  | { type: "create"; obj: KubeObject }
  | { type: "update"; old: KubeObject; obj: KubeObject }
  | { type: "delete"; obj: KubeObject };

export function passes(predicates: readonly Predicate[], ev: ObjectEvent): boolean {
  return predicates.every((p) => {
    if (ev.type === "create") return p.create?.(ev.obj) ?? true;
    if (ev.type === "update") return p.update?.(ev.old, ev.obj) ?? true;
    return p.delete?.(ev.obj) ?? true;
  });
}
