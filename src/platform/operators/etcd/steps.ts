/**
 * Carrying out one membership step the plan chose (plan.ts), through the API
 * (EtcdMembers created, told how to start, deleted) and etcd's membership
 * calls (learner added, promoted; a stray removed). Refusals etcd lifts by
 * itself — a promotion before the learner caught up, a change within seconds
 * of the last — end the step quietly: the next pass, a second later, tries again.
 */
import { type Client, type EventRecorder, ignoreNotFound } from "../../../client/index.js";
import type { EtcdApi, Membership } from "./etcd-api.js";
import { ownerRef } from "./member-pod.js";
import type { Step } from "./plan.js";
import { setPodRole } from "./pod-marks.js";
import {
  ETCD_API_VERSION,
  type EtcdCluster,
  type EtcdMember,
  LABEL_CLUSTER,
  peerUrl,
} from "./types.js";

export class StepRunner {
  constructor(
    private readonly client: Client,
    private readonly events: EventRecorder,
  ) {}

  async run(
    api: EtcdApi,
    cluster: EtcdCluster,
    step: Step,
    membership: Membership | undefined,
    addresses: Map<string, string>,
  ): Promise<void> {
    const name = cluster.metadata.name!;
    const namespace = cluster.metadata.namespace!;
    const setStart = (member: string, initialCluster: string, state: "new" | "existing") =>
      this.client.patch(
        { apiVersion: ETCD_API_VERSION, kind: "EtcdMember", name: member, namespace },
        { spec: { initialCluster, initialClusterState: state } },
        { type: "merge" },
      );
    switch (step.kind) {
      case "create":
        for (let i = 0; i < step.count; i++)
          await this.client.create<EtcdMember>({
            apiVersion: ETCD_API_VERSION,
            kind: "EtcdMember",
            metadata: {
              generateName: `${name}-`,
              namespace,
              labels: { [LABEL_CLUSTER]: name },
              ownerReferences: [ownerRef(cluster)],
            },
            spec: { cluster: name },
          });
        return;
      case "bootstrap": {
        const initial = step.members.map((m) => `${m}=${peerUrl(addresses.get(m)!)}`).join(",");
        for (const m of step.members) await setStart(m, initial, "new");
        return;
      }
      case "add": {
        const peer = peerUrl(addresses.get(step.member)!);
        const current = membership!.members;
        if (!current.some((e) => e.peerURLs.includes(peer)))
          try {
            await api.addLearner(peer);
          } catch (e) {
            // etcd refuses changes until every voter has been connected for a few
            // seconds (strict reconfiguration check): the next pass tries again.
            if (/unhealthy cluster/.test((e as Error).message)) return;
            throw e;
          }
        const others = current.filter((e) => e.name && !e.peerURLs.includes(peer));
        const initial = [
          ...others.map((e) => `${e.name}=${e.peerURLs[0]}`),
          `${step.member}=${peer}`,
        ];
        await setStart(step.member, initial.join(","), "existing");
        this.events.event(
          cluster,
          "Normal",
          "MemberAdded",
          `member ${step.member} added as a learner at ${peer}`,
        );
        return;
      }
      case "promote":
        try {
          await api.promote(BigInt(`0x${step.id}`).toString());
          this.events.event(
            cluster,
            "Normal",
            "MemberPromoted",
            `learner ${step.member} promoted to voter`,
          );
        } catch (e) {
          // Refused until the learner has caught up with the leader: the next pass retries.
          if (!/not in sync|unhealthy cluster|not enough started/i.test((e as Error).message))
            throw e;
        }
        return;
      case "remove":
        // Out of the client Service first, so new connections go elsewhere.
        await ignoreNotFound(setPodRole(this.client, namespace, step.member, "leaving"));
        await this.client.delete({
          apiVersion: ETCD_API_VERSION,
          kind: "EtcdMember",
          name: step.member,
          namespace,
        });
        this.events.event(
          cluster,
          "Normal",
          "MemberRemoving",
          `removing member ${step.member} (newest first)`,
        );
        return;
      case "removeStray":
        await api.remove(BigInt(`0x${step.id}`).toString());
        this.events.event(
          cluster,
          "Warning",
          "StrayMemberRemoved",
          `removed etcd member ${step.name || step.id}, which had no EtcdMember`,
        );
        return;
      case "wait":
      case "steady":
        return;
    }
  }
}
