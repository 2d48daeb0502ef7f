/**
 * A workload's ControllerRevisions (kube's controller history, shared by the
 * StatefulSet and DaemonSet controllers): the revision data of a template (the
 * strategic-merge patch `{"spec":{"template":{…,"$patch":"replace"}}}`), the
 * owner's revisions, the update revision (an equal latest one reused, an equal
 * older one renumbered to the next revision, else a new one named
 * `<owner>-<hash>`, bumping `collisionCount` on a name taken by other data),
 * and the truncation of history past `revisionHistoryLimit`. Revisions are
 * created before any pod names them, so a crash leaves at most an unused
 * revision, which the next truncation counts.
 */
import type {
  ControllerRevision,
  KubeObject,
  LabelSelector,
  PodTemplateSpec,
} from "../../api/index.js";
import { CONTROLLER_REVISION_HASH_LABEL, hasCode } from "../../api/index.js";
import { type Client, ignoreNotFound, refOf } from "../../client/index.js";
import { newControllerRef } from "../controller-ref.js";
import { controllerRef, selectorString } from "../jobs/job-pods.js";
import { revisionHash, revisionName } from "./revision-hash.js";
import { stableJson } from "./stable-json.js";

export interface HistoryOwner extends KubeObject {
  spec: { selector?: LabelSelector; template: PodTemplateSpec; revisionHistoryLimit?: number };
  status?: { collisionCount?: number };
}

const REVISION = { apiVersion: "apps/v1", kind: "ControllerRevision" };

/** The revision data of the owner's current template. */
export function revisionData(owner: HistoryOwner): unknown {
  return { spec: { template: { ...owner.spec.template, $patch: "replace" } } };
}

/** The owner's template as a revision holds it. */
export function templateOf(revision: ControllerRevision): PodTemplateSpec {
  const data = revision.data as { spec?: { template?: PodTemplateSpec & { $patch?: string } } };
  const { $patch: _replace, ...template } = data?.spec?.template ?? {};
  return template;
}

export const sameData = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

/** The revisions controlled by the owner, oldest first. */
export async function listRevisions(
  client: Client,
  owner: HistoryOwner,
): Promise<ControllerRevision[]> {
  const list = await client.list<ControllerRevision>(REVISION, {
    namespace: owner.metadata.namespace,
    labelSelector: selectorString(owner.spec.selector),
  });
  return list.items
    .filter((r) => controllerRef(r)?.uid === owner.metadata.uid)
    .sort((a, b) => a.revision - b.revision || (a.metadata.name! < b.metadata.name! ? -1 : 1));
}

function newRevision(owner: HistoryOwner, data: unknown, revision: number, hash: string) {
  const labels = { ...(owner.spec.template.metadata?.labels ?? {}) };
  labels[CONTROLLER_REVISION_HASH_LABEL] = hash;
  const cr: ControllerRevision = {
    ...REVISION,
    metadata: {
      name: revisionName(owner.metadata.name ?? "", hash),
      namespace: owner.metadata.namespace,
      labels,
      ownerReferences: [newControllerRef(owner)],
    },
    data,
    revision,
  };
  return cr;
}

export interface UpdateRevision {
  revision: ControllerRevision;
  /** The owner's collisionCount after any collision was resolved. */
  collisionCount: number;
}

/** The revision for the owner's current template, created or renumbered as needed. */
export async function ensureUpdateRevision(
  client: Client,
  owner: HistoryOwner,
  revisions: ControllerRevision[],
): Promise<UpdateRevision> {
  const data = revisionData(owner);
  let collisionCount = owner.status?.collisionCount ?? 0;
  const latest = revisions.at(-1);
  const next = (latest?.revision ?? 0) + 1;
  const equal = revisions.filter((r) => sameData(r.data, data)).at(-1);
  if (equal && equal === latest) return { revision: equal, collisionCount };
  if (equal) {
    // A rollback to an old template: that revision becomes the newest.
    const renumbered = await client.update<ControllerRevision>({ ...equal, revision: next });
    return { revision: renumbered, collisionCount };
  }
  for (;;) {
    const hash = revisionHash(data, collisionCount);
    const cr = newRevision(owner, data, next, hash);
    try {
      return { revision: await client.create(cr), collisionCount };
    } catch (e) {
      if (!hasCode(e, 409)) throw e;
      const taken = await client.get<ControllerRevision>(refOf(cr));
      if (controllerRef(taken)?.uid === owner.metadata.uid && sameData(taken.data, data))
        return { revision: taken, collisionCount };
      collisionCount++;
    }
  }
}

/**
 * Deletes the oldest revisions that no pod, nor the current or update revision,
 * uses, keeping `revisionHistoryLimit` of them.
 */
export async function truncateHistory(
  client: Client,
  owner: HistoryOwner,
  revisions: ControllerRevision[],
  live: Set<string>,
): Promise<void> {
  const unused = revisions.filter((r) => !live.has(r.metadata.name ?? ""));
  const excess = unused.length - (owner.spec.revisionHistoryLimit ?? 10);
  for (const r of unused.slice(0, Math.max(0, excess)))
    await ignoreNotFound(client.delete(refOf(r)));
}
