/**
 * The Deployment controller's ReplicaSets: claiming them (kube's
 * ClaimReplicaSets: adopt matching orphans, release owned ones that no longer
 * match), and getNewReplicaSet — the ReplicaSet of the current template,
 * named `<deployment>-<pod-template-hash>` so that a create repeated after a
 * crash finds the one already made (AlreadyExists with our template and
 * controller → it is ours; another template → a hash collision, counted in
 * `status.collisionCount` to change the hash). Revisions: the new ReplicaSet
 * gets max(old revisions)+1, keeping the ones it held in
 * `deployment.kubernetes.io/revision-history` (a rollback reuses a ReplicaSet).
 */
import {
  type Deployment,
  hasCode,
  labelSelectorFromObject,
  POD_TEMPLATE_HASH_LABEL,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  type ReplicaSet,
} from "../../api/index.js";
import { type Client, ignoreNotFound, refOf } from "../../client/index.js";
import { newReplicaSetReplicas } from "./deployment-rollout.js";
import { maxSurge, revisionOf, setReplicasAnnotations, templateHash } from "./deployment-util.js";
import { controllerRef, controllerRefTo } from "./pod-state.js";

/** Annotations of a Deployment never copied to its ReplicaSets (skipCopyAnnotation). */
const NOT_COPIED = new Set([
  "kubectl.kubernetes.io/last-applied-configuration",
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  "deployment.kubernetes.io/desired-replicas",
  "deployment.kubernetes.io/max-replicas",
  "deprecated.deployment.rollback.to",
]);
const MAX_REVISION_HISTORY_CHARS = 2000;

/** The ReplicaSets of the namespace this Deployment controls, after adoption and release. */
export async function claimReplicaSets(client: Client, d: Deployment): Promise<ReplicaSet[]> {
  const list = await client.list<ReplicaSet>(
    { apiVersion: "apps/v1", kind: "ReplicaSet" },
    { namespace: d.metadata.namespace },
  );
  const selector = labelSelectorFromObject(d.spec.selector ?? {});
  const matches = (rs: ReplicaSet) => selector.matches((k) => rs.metadata.labels?.[k]);
  const claimed: ReplicaSet[] = [];
  for (const rs of list.items) {
    const ref = controllerRef(rs);
    const uid = { uid: rs.metadata.uid };
    if (ref) {
      if (ref.uid !== d.metadata.uid) continue;
      if (matches(rs)) claimed.push(rs);
      else {
        const patch = {
          metadata: { ownerReferences: [{ $patch: "delete", uid: d.metadata.uid }], ...uid },
        };
        await ignoreNotFound(client.patch(refOf(rs), patch, { type: "strategic" }));
      }
      continue;
    }
    if (!matches(rs) || rs.metadata.deletionTimestamp || d.metadata.deletionTimestamp) continue;
    const patch = { metadata: { ownerReferences: [controllerRefTo("Deployment", d)], ...uid } };
    const adopted = await ignoreNotFound(
      client.patch<ReplicaSet>(refOf(rs), patch, { type: "strategic" }),
    );
    if (adopted) claimed.push(adopted);
  }
  return claimed;
}

/** SetNewReplicaSetAnnotations on `rs` (a copy); returns whether anything changed. */
export function setNewReplicaSetAnnotations(
  d: Deployment,
  rs: ReplicaSet,
  revision: number,
  exists: boolean,
): boolean {
  const annotations = { ...(rs.metadata.annotations ?? {}) };
  let changed = false;
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (NOT_COPIED.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  const had = annotations[REVISION_ANNOTATION];
  const old = had === undefined ? 0 : Number(had);
  if (Number.isNaN(old)) return changed;
  if (old < revision) {
    annotations[REVISION_ANNOTATION] = String(revision);
    changed = true;
    if (had !== undefined)
      annotations[REVISION_HISTORY_ANNOTATION] = withHistory(
        annotations[REVISION_HISTORY_ANNOTATION],
        had,
      );
  }
  rs.metadata.annotations = annotations;
  if (!exists) {
    const desired = d.spec.replicas ?? 1;
    if (setReplicasAnnotations(rs, desired, desired + maxSurge(d))) changed = true;
  }
  return changed;
}

function withHistory(history: string | undefined, revision: string): string {
  if (!history) return revision;
  const old = history.split(",");
  let total = history.length + revision.length + 1;
  let start = 0;
  while (total > MAX_REVISION_HISTORY_CHARS && start < old.length)
    total -= old[start++]!.length + 1;
  return [...old.slice(start), revision].join(",");
}

/** The ReplicaSet to create for the Deployment's template now. */
export function newReplicaSetFor(
  d: Deployment,
  oldRSs: ReplicaSet[],
  revision: number,
): ReplicaSet {
  const template = structuredClone(d.spec.template);
  const hash = templateHash(template, d.status?.collisionCount);
  template.metadata = { ...(template.metadata ?? {}) };
  template.metadata.labels = {
    ...(template.metadata.labels ?? {}),
    [POD_TEMPLATE_HASH_LABEL]: hash,
  };
  const selector = structuredClone(d.spec.selector ?? {});
  selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
  const rs: ReplicaSet = {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: {
      name: `${d.metadata.name}-${hash}`,
      namespace: d.metadata.namespace,
      ownerReferences: [controllerRefTo("Deployment", d)],
      labels: { ...template.metadata.labels },
    },
    spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds ?? 0, selector, template },
  };
  rs.spec.replicas = newReplicaSetReplicas(d, [...oldRSs, rs], rs);
  setNewReplicaSetAnnotations(d, rs, revision, false);
  return rs;
}

export type CreateOutcome =
  | { kind: "created"; rs: ReplicaSet }
  | { kind: "existing"; rs: ReplicaSet }
  | { kind: "collision" };

/** Creates the new ReplicaSet; an existing one of that name is ours only with our template. */
export async function createReplicaSet(
  client: Client,
  d: Deployment,
  rs: ReplicaSet,
  same: (a: ReplicaSet) => boolean,
): Promise<CreateOutcome> {
  try {
    return { kind: "created", rs: await client.create(rs) };
  } catch (e) {
    if (!hasCode(e, 409)) throw e;
    const found = await client.get<ReplicaSet>(refOf(rs));
    if (controllerRef(found)?.uid === d.metadata.uid && same(found))
      return { kind: "existing", rs: found };
    return { kind: "collision" };
  }
}

export const maxRevision = (rss: ReplicaSet[]) => Math.max(0, ...rss.map(revisionOf));
