/**
 * An EtcdCluster's status from one pass: the members (name, etcd ID, ready,
 * learner), how many voters are ready (`2/3` in `kubectl get`), the cluster
 * ID, and the conditions Ready (every wanted member is a ready voter and auth
 * is on when asked for) and Progressing (a membership step is under way or
 * waiting, with why).
 */
import { isDeepStrictEqual } from "node:util";
import type { Client } from "../../../client/index.js";
import { sameConditions, setCondition } from "../../../runtime/index.js";
import type { ObservedMember, Step } from "./plan.js";
import type { EtcdCluster, MemberStatus } from "./types.js";

export interface PassOutcome {
  observed: ObservedMember[];
  step: Step;
  clusterId?: string;
  authEnabled: boolean;
  /** Why etcd could not be asked, if it could not. */
  unreachable?: string;
}

function describe(step: Step): string {
  switch (step.kind) {
    case "create":
      return `creating ${step.count} member(s)`;
    case "bootstrap":
      return `starting members ${step.members.join(", ")}`;
    case "add":
      return `adding member ${step.member} as a learner`;
    case "promote":
      return `promoting learner ${step.member}`;
    case "remove":
      return `removing member ${step.member}`;
    case "removeStray":
      return `removing etcd member ${step.name || step.id}, which has no EtcdMember`;
    case "wait":
      return step.reason;
    case "steady":
      return "";
  }
}

export function clusterStatus(cluster: EtcdCluster, out: PassOutcome): EtcdCluster["status"] {
  const generation = cluster.metadata.generation ?? 0;
  const members: MemberStatus[] = out.observed
    .filter((m) => !m.deleting)
    .map((m) => ({
      name: m.name,
      ...(m.etcd ? { id: m.etcd.id } : {}),
      ready: m.ready,
      learner: m.etcd?.learner ?? false,
    }));
  const readyMembers = members.filter((m) => m.ready && !m.learner).length;
  const replicas = cluster.spec.replicas;
  const wantAuth = cluster.spec.auth?.enabled === true;
  const progressing = out.unreachable ?? describe(out.step);
  const ready =
    out.step.kind === "steady" &&
    !out.unreachable &&
    readyMembers === replicas &&
    (!wantAuth || out.authEnabled);
  const readyMessage = ready
    ? `${readyMembers}/${replicas} members ready`
    : progressing ||
      (wantAuth && !out.authEnabled
        ? "enabling auth"
        : `${readyMembers}/${replicas} members ready`);
  let conditions = setCondition(cluster.status?.conditions, {
    type: "Ready",
    status: ready ? "True" : "False",
    reason: ready ? "MembersReady" : out.unreachable ? "EtcdUnreachable" : "NotReady",
    message: readyMessage,
    observedGeneration: generation,
  });
  conditions = setCondition(conditions, {
    type: "Progressing",
    status: out.step.kind === "steady" ? "False" : "True",
    reason:
      out.step.kind === "steady" ? "Steady" : out.step.kind === "wait" ? "Waiting" : "Reconciling",
    message: progressing,
    observedGeneration: generation,
  });
  return {
    observedGeneration: generation,
    ready: `${readyMembers}/${replicas}`,
    readyMembers,
    replicas: members.length,
    members,
    ...(out.clusterId
      ? { clusterID: out.clusterId }
      : cluster.status?.clusterID
        ? { clusterID: cluster.status.clusterID }
        : {}),
    authEnabled: out.authEnabled,
    conditions,
  };
}

/** Writes `status` unless it says what the stored status says. */
export async function writeStatus(
  client: Client,
  cluster: EtcdCluster,
  status: EtcdCluster["status"],
): Promise<void> {
  const { conditions: a, ...restOld } = cluster.status ?? {};
  const { conditions: b, ...restNew } = status ?? {};
  if (isDeepStrictEqual(restOld, restNew) && sameConditions(a, b)) return;
  await client.patchStatus(
    {
      apiVersion: cluster.apiVersion,
      kind: cluster.kind,
      name: cluster.metadata.name!,
      namespace: cluster.metadata.namespace,
    },
    { status },
    { type: "merge" },
  );
}
