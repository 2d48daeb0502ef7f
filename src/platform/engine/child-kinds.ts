/**
 * Which of an app's children the engine hears about: those of the kinds its
 * module declares (`AppModule.childKinds`). A wait on any other child cannot
 * be woken by an event, so the reconciler falls back to a timer for it.
 */
import type { AppModule, InventoryEntry } from "./module.js";

/** True when every entry is of a kind the module declares, so its events wake the app. */
export function allWatched(
  module: AppModule,
  entries: readonly Pick<InventoryEntry, "apiVersion" | "kind">[],
): boolean {
  const declared = new Set((module.childKinds ?? []).map((t) => `${t.apiVersion}/${t.kind}`));
  return entries.every((e) => declared.has(`${e.apiVersion}/${e.kind}`));
}
