/**
 * The EtcdCluster reconciler: Services, certificates, then one membership
 * step (plan.ts) carried out through the API and etcd's own membership calls,
 * then auth and status. Level-based: each pass observes the EtcdMembers, their
 * pods and etcd's member list afresh, so a crash between any two writes is
 * picked up by the next pass. Members leave through their own finalizer
 * (member-reconciler.ts), which removes them from etcd.
 */
import { hasCode } from "../../../api/errors.js";
import type { Pod } from "../../../api/pod.js";
import type { Client, EventRecorder } from "../../../client/index.js";
import { DONE, type Reconciler, type Result } from "../../../runtime/index.js";
import { clusterStatus, type PassOutcome, writeStatus } from "./cluster-status.js";
import { EtcdApi, hexId, type Membership } from "./etcd-api.js";
import { ownerRef } from "./member-pod.js";
import { nextStep, type ObservedMember, type Step } from "./plan.js";
import { applyClusterServices, applyMemberService } from "./services.js";
import { ensureClusterTls } from "./tls.js";
import {
  clientUrl,
  ETCD_API_VERSION,
  type EtcdCluster,
  type EtcdMember,
  LABEL_CLUSTER,
  LABEL_COMPONENT,
  LABEL_ROLE,
  peerUrl,
} from "./types.js";

/** How soon to look again while a step is under way, and when all is steady. */
const BUSY_MS = 1_000;
const CERTS_ANNOTATION = "etcd.hearth.io/certificates";
const STEADY_MS = 15_000;

const podReady = (p: Pod | undefined) =>
  p?.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true &&
  !p.metadata.deletionTimestamp;

export class ClusterReconciler implements Reconciler {
  constructor(
    private readonly client: Client,
    private readonly events: EventRecorder,
  ) {}

  async reconcile(_signal: AbortSignal, key: string): Promise<Result> {
    const [namespace, name] = key.split("/") as [string, string];
    let cluster: EtcdCluster;
    try {
      cluster = await this.client.get<EtcdCluster>(
        ETCD_API_VERSION,
        "EtcdCluster",
        name,
        namespace,
      );
    } catch (e) {
      if (hasCode(e, 404)) return DONE;
      throw e;
    }
    // Deletion: owner references take everything; members skip leaving etcd.
    if (cluster.metadata.deletionTimestamp) return DONE;

    const clientIp = await applyClusterServices(this.client, cluster);
    const selector = { namespace, labelSelector: `${LABEL_CLUSTER}=${name}` };
    const members = (await this.client.list<EtcdMember>(ETCD_API_VERSION, "EtcdMember", selector))
      .items;
    const pods = (await this.client.list<Pod>("v1", "Pod", selector)).items;
    const addresses = new Map<string, string>();
    for (const m of members)
      if (!m.metadata.deletionTimestamp)
        addresses.set(m.metadata.name!, await applyMemberService(this.client, cluster, m));
    const { creds, version } = await ensureClusterTls(this.client, this.events, cluster, {
      members: [...addresses.keys()],
      ips: [clientIp, ...addresses.values()].filter((ip) => ip && ip !== "None"),
    });

    await this.refreshCertificates(pods, version);
    const started = members.filter((m) => m.spec.initialCluster && addresses.get(m.metadata.name!));
    const dormant = cluster.spec.replicas === 0 && members.length <= 1;
    const api = new EtcdApi(
      started.map((m) => clientUrl(addresses.get(m.metadata.name!)!)),
      creds,
    );
    try {
      let membership: Membership | undefined;
      let unreachable: string | undefined;
      if (started.length > 0 && !dormant) {
        try {
          membership = await api.membership();
        } catch (e) {
          unreachable = `cannot reach etcd: ${(e as Error).message}`;
          // Before any member is ready (bootstrap, restart) this is expected.
          if (pods.some(podReady))
            this.events.event(cluster, "Warning", "EtcdUnreachable", unreachable);
        }
      }
      const observed = await this.observe(api, members, pods, addresses, membership);
      await this.labelRoles(pods, observed);
      const step: Step = unreachable
        ? { kind: "wait", reason: unreachable }
        : nextStep(cluster.spec.replicas, observed);
      await this.carryOut(api, cluster, step, membership, addresses);
      let authEnabled = cluster.status?.authEnabled === true;
      if (step.kind === "steady" && !dormant && cluster.spec.auth?.enabled && !authEnabled) {
        await api.enableRootAuth();
        authEnabled = true;
        this.events.event(
          cluster,
          "Normal",
          "AuthEnabled",
          "etcd auth enabled; user root authenticates by client certificate",
        );
      }
      const outcome: PassOutcome = {
        observed,
        step,
        authEnabled,
        ...(membership ? { clusterId: hexId(membership.clusterId) } : {}),
        ...(unreachable ? { unreachable } : {}),
      };
      await writeStatus(this.client, cluster, clusterStatus(cluster, outcome));
      return { requeueAfter: step.kind === "steady" ? STEADY_MS : BUSY_MS };
    } finally {
      api.close();
    }
  }

  /**
   * Marks each running pod with the certificates' version: the change makes
   * the node agent write the re-issued files into the pod's secret volumes,
   * and etcd reads them again on its next TLS handshake.
   */
  private async refreshCertificates(pods: Pod[], version: string): Promise<void> {
    for (const p of pods)
      if (!p.metadata.deletionTimestamp && p.metadata.annotations?.[CERTS_ANNOTATION] !== version)
        await this.client.patch(
          "v1",
          "Pod",
          p.metadata.name!,
          p.metadata.namespace,
          { metadata: { annotations: { [CERTS_ANNOTATION]: version } } },
          "merge",
        );
  }

  /**
   * Labels each pod `voter` or `learner` as etcd lists its member, or
   * `leaving`; the client Service selects voters.
   */
  private async labelRoles(pods: Pod[], observed: ObservedMember[]): Promise<void> {
    for (const p of pods) {
      const member = observed.find((m) => m.name === p.metadata.labels?.[LABEL_COMPONENT]);
      const etcd = member?.etcd;
      const role = member?.deleting
        ? "leaving"
        : etcd
          ? etcd.learner
            ? "learner"
            : "voter"
          : undefined;
      if (role && p.metadata.labels?.[LABEL_ROLE] !== role && !p.metadata.deletionTimestamp)
        await this.setRole(p.metadata.namespace!, p.metadata.name!, role);
    }
  }

  private async setRole(namespace: string, pod: string, role: string): Promise<void> {
    const labels = { [LABEL_ROLE]: role };
    await this.client.patch("v1", "Pod", pod, namespace, { metadata: { labels } }, "merge");
  }

  /** Each member as the plan sees it: pending, ready, and its etcd entry with health. */
  private async observe(
    api: EtcdApi,
    members: EtcdMember[],
    pods: Pod[],
    addresses: Map<string, string>,
    membership: Membership | undefined,
  ): Promise<ObservedMember[]> {
    return Promise.all(
      members.map(async (m) => {
        const name = m.metadata.name!;
        const address = addresses.get(name);
        const entry = membership?.members.find(
          (e) => e.name === name || (address && e.peerURLs.includes(peerUrl(address))),
        );
        const healthy =
          entry && address ? (await api.status(clientUrl(address))) !== undefined : false;
        return {
          name,
          created: m.metadata.creationTimestamp ?? "",
          deleting: m.metadata.deletionTimestamp !== undefined,
          pending: !m.spec.initialCluster,
          ready: podReady(pods.find((p) => p.metadata.labels?.[LABEL_COMPONENT] === name)),
          ...(entry ? { etcd: { id: hexId(entry.ID), learner: entry.isLearner, healthy } } : {}),
        };
      }),
    );
  }

  private async carryOut(
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
        ETCD_API_VERSION,
        "EtcdMember",
        member,
        namespace,
        { spec: { initialCluster, initialClusterState: state } },
        "merge",
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
        await this.setRole(namespace, step.member, "leaving").catch((e) => {
          if (!hasCode(e, 404)) throw e;
        });
        await this.client.delete(ETCD_API_VERSION, "EtcdMember", step.member, namespace);
        this.events.event(
          cluster,
          "Normal",
          "MemberRemoving",
          `removing member ${step.member} (newest first)`,
        );
        return;
      case "wait":
      case "steady":
        return;
    }
  }
}
