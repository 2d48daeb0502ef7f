/**
 * The five deletion conditions of a terminating namespace, worded as kube's
 * namespace controller words them, kept true to what is left.
 */
import type { Remaining } from "./content.js";
import { describeFinalizers, describeResources } from "./content.js";

export interface NamespaceCondition {
  type: string;
  status: "True" | "False";
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

export interface DeletionState {
  discoveryError?: string;
  contentError?: string;
  remaining: Remaining;
}

export function deletionConditions(state: DeletionState): NamespaceCondition[] {
  const r = state.remaining;
  return [
    state.discoveryError
      ? {
          type: "NamespaceDeletionDiscoveryFailure",
          status: "True",
          reason: "DiscoveryFailed",
          message: `Discovery failed for some groups: ${state.discoveryError}`,
        }
      : {
          type: "NamespaceDeletionDiscoveryFailure",
          status: "False",
          reason: "ResourcesDiscovered",
          message: "All resources successfully discovered",
        },
    {
      type: "NamespaceDeletionGroupVersionParsingFailure",
      status: "False",
      reason: "ParsedGroupVersions",
      message: "All legacy kube types successfully parsed",
    },
    state.contentError
      ? {
          type: "NamespaceDeletionContentFailure",
          status: "True",
          reason: "ContentDeletionFailed",
          message: `Failed to delete all resource types: ${state.contentError}`,
        }
      : {
          type: "NamespaceDeletionContentFailure",
          status: "False",
          reason: "ContentDeleted",
          message: "All content successfully deleted, may be waiting on finalization",
        },
    r.resources.size > 0
      ? {
          type: "NamespaceContentRemaining",
          status: "True",
          reason: "SomeResourcesRemain",
          message: `Some resources are remaining: ${describeResources(r)}`,
        }
      : {
          type: "NamespaceContentRemaining",
          status: "False",
          reason: "ContentRemoved",
          message: "All content successfully removed",
        },
    r.finalizers.size > 0
      ? {
          type: "NamespaceFinalizersRemaining",
          status: "True",
          reason: "SomeFinalizersRemain",
          message: `Some content in the namespace has finalizers remaining: ${describeFinalizers(r)}`,
        }
      : {
          type: "NamespaceFinalizersRemaining",
          status: "False",
          reason: "ContentHasNoFinalizers",
          message: "All content-preserving finalizers finished",
        },
  ];
}

/** New conditions, keeping lastTransitionTime where the status did not change. */
export function mergeConditions(
  old: NamespaceCondition[],
  next: NamespaceCondition[],
  now: string,
): NamespaceCondition[] {
  return next.map((c) => {
    const prev = old.find((o) => o.type === c.type);
    return {
      ...c,
      lastTransitionTime: prev && prev.status === c.status ? (prev.lastTransitionTime ?? now) : now,
    };
  });
}

export function sameConditions(a: NamespaceCondition[], b: NamespaceCondition[]): boolean {
  if (a.length !== b.length) return false;
  return a.every(
    (c, i) =>
      c.type === b[i]!.type &&
      c.status === b[i]!.status &&
      c.reason === b[i]!.reason &&
      c.message === b[i]!.message,
  );
}
