/**
 * What the cluster reconciler writes on its members' pods (the member
 * reconciler creates them): the role label — `voter` or `learner` as etcd
 * lists the member, `leaving` for a member being removed — which the client
 * Service selects on (voters only: a learner refuses most requests), and the
 * certificates' version annotation, whose change makes the node agent write
 * re-issued certificates into the pod's secret volumes (etcd reads them again
 * on its next TLS handshake).
 */
import type { Pod } from "../../../api/index.js";
import type { Client } from "../../../client/index.js";
import type { ObservedMember } from "./plan.js";
import { LABEL_COMPONENT, LABEL_ROLE } from "./types.js";

export const CERTS_ANNOTATION = "etcd.hearth.io/certificates";

export type Role = "voter" | "learner" | "leaving";

export async function setPodRole(
  client: Client,
  namespace: string,
  pod: string,
  role: Role,
): Promise<void> {
  const labels = { [LABEL_ROLE]: role };
  await client.patch(
    { apiVersion: "v1", kind: "Pod", name: pod, namespace },
    { metadata: { labels } },
    { type: "merge" },
  );
}

function roleOf(member: ObservedMember | undefined): Role | undefined {
  if (member?.deleting) return "leaving";
  if (!member?.etcd) return undefined;
  return member.etcd.learner ? "learner" : "voter";
}

export async function labelRoles(
  client: Client,
  pods: Pod[],
  observed: ObservedMember[],
): Promise<void> {
  for (const p of pods) {
    const role = roleOf(observed.find((m) => m.name === p.metadata.labels?.[LABEL_COMPONENT]));
    if (role && p.metadata.labels?.[LABEL_ROLE] !== role && !p.metadata.deletionTimestamp)
      await setPodRole(client, p.metadata.namespace!, p.metadata.name!, role);
  }
}

export async function markCertificates(
  client: Client,
  pods: Pod[],
  version: string,
): Promise<void> {
  for (const p of pods)
    if (!p.metadata.deletionTimestamp && p.metadata.annotations?.[CERTS_ANNOTATION] !== version)
      await client.patch(
        { apiVersion: "v1", kind: "Pod", name: p.metadata.name!, namespace: p.metadata.namespace },
        { metadata: { annotations: { [CERTS_ANNOTATION]: version } } },
        { type: "merge" },
      );
}
