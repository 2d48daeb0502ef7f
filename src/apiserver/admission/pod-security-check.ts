/**
 * The shape of one Pod Security Standards check, as kube's pod-security-admission
 * library defines it: an id, the level it belongs to, and versions — from a
 * policy version on, a function of the pod's metadata and spec that allows it
 * or names the reason and detail it is forbidden. A restricted check may
 * override (replace) baseline checks. Plus the message helpers every check
 * shares, so the wording is kube's to the character.
 */
import type { Container, ObjectMeta, PodSpec } from "../../api/index.js";

export type Level = "privileged" | "baseline" | "restricted";

/** A forbidden result; a check that allows returns undefined. */
export interface Violation {
  reason: string;
  /** May be empty. */
  detail: string;
}

export type CheckPod = (meta: ObjectMeta, spec: PodSpec) => Violation | undefined;

export interface VersionedCheck {
  /** The first policy version (1.x: the minor) this function applies to. */
  minimumMinor: number;
  check: CheckPod;
  /** Baseline check ids this restricted check replaces. */
  overrides?: string[];
}

export interface Check {
  id: string;
  level: "baseline" | "restricted";
  versions: VersionedCheck[];
}

/** Every container of the pod: init containers first, then containers. */
export function containersOf(spec: PodSpec): Container[] {
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}

/** `"a", "b"` (Go's joinQuote). */
export function joinQuote(items: string[]): string {
  return items.length === 0 ? "" : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `container "a"` / `containers "a", "b"`. */
export function containersPhrase(names: string[]): string {
  return `${pluralize("container", "containers", names.length)} ${joinQuote(names)}`;
}

/** The distinct values in Go's sorted-set order (byte order). */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}
