/**
 * The EtcdCluster reconciler: Services, certificates, then one membership
 * step (plan.ts) carried out through the API and etcd's own membership calls,
 * then auth and status. Level-based: each pass observes the EtcdMembers, their
 * pods and etcd's member list afresh, so a crash between any two writes is
 * picked up by the next pass. Members leave through their own finalizer
 * (member-reconciler.ts), which removes them from etcd.
 */
import type { Pod } from "../../../api/index.js";
import { type Client, type EventRecorder, errorText, getOptional } from "../../../client/index.js";
import {
  type Cache,
  DONE,
  type Request,
  type Result,
  type TypedReconciler,
} from "../../../runtime/index.js";
import { clusterStatus, type PassOutcome, writeStatus } from "./cluster-status.js";
import { EtcdApi, hexId, type Membership } from "./etcd-api.js";
import {
  initialNames,
  nextStep,
  type ObservedMember,
  resumeBootstrap,
  type Step,
  type Stray,
} from "./plan.js";
import { labelRoles, markCertificates } from "./pod-marks.js";
import { applyClusterServices, applyMemberService } from "./services.js";
import { StepRunner } from "./steps.js";
import { ensureClusterTls } from "./tls.js";
import {
  clientUrl,
  ETCD_API_VERSION,
  type EtcdCluster,
  type EtcdMember,
  LABEL_CLUSTER,
  LABEL_COMPONENT,
  OPERATOR_PODS,
  peerUrl,
} from "./types.js";

/** How soon to look again while a step is under way, and when all is steady. */
const BUSY_MS = 1_000;
const STEADY_MS = 15_000;

/** etcd's members that no EtcdMember stands for. */
function strays(membership: Membership | undefined, observed: ObservedMember[]): Stray[] {
  const known = new Set(observed.map((m) => m.etcd?.id));
  return (membership?.members ?? [])
    .map((e) => ({ name: e.name, id: hexId(e.ID) }))
    .filter((e) => !known.has(e.id));
}

const podReady = (p: Pod | undefined) =>
  p?.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true &&
  !p.metadata.deletionTimestamp;

export class ClusterReconciler implements TypedReconciler {
  private readonly steps: StepRunner;

  constructor(
    private readonly client: Client,
    private readonly events: EventRecorder,
    /** The members' pods are read here (the operator's scope of pods, which it watches). */
    private readonly cache: Pick<Cache, "list">,
  ) {
    this.steps = new StepRunner(client, events);
  }

  async reconcile({ namespace = "", name }: Request): Promise<Result> {
    const cluster = await getOptional<EtcdCluster>(this.client, {
      apiVersion: ETCD_API_VERSION,
      kind: "EtcdCluster",
      name,
      namespace,
    });
    if (!cluster) return DONE;
    // Deletion: owner references take everything; members skip leaving etcd.
    if (cluster.metadata.deletionTimestamp) return DONE;

    const clientIp = await applyClusterServices(this.client, cluster);
    const selector = { namespace, labelSelector: `${LABEL_CLUSTER}=${name}` };
    // The members are read live: the plan counts them, and members are created
    // with generateName, so a cache that has not yet seen the last pass's
    // creations (its status write wakes the next pass, maybe first) would have
    // them created again. Pods are read from the cache: a stale one only
    // delays a step (the plan also asks etcd itself about each member's health)
    // or repeats an idempotent label patch, and its event brings the next pass.
    const members = (
      await this.client.list<EtcdMember>(
        { apiVersion: ETCD_API_VERSION, kind: "EtcdMember" },
        selector,
      )
    ).items;
    const pods = (
      await this.cache.list<Pod>(
        { apiVersion: "v1", kind: "Pod" },
        { ...selector, scope: OPERATOR_PODS },
      )
    ).items;
    const addresses = new Map<string, string>();
    for (const m of members)
      if (!m.metadata.deletionTimestamp)
        addresses.set(m.metadata.name!, await applyMemberService(this.client, cluster, m));
    const { creds, version } = await ensureClusterTls(this.client, this.events, cluster, {
      members: [...addresses.keys()],
      ips: [clientIp, ...addresses.values()].filter((ip) => ip && ip !== "None"),
    });

    await markCertificates(this.client, pods, version);
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
          unreachable = `cannot reach etcd: ${errorText(e)}`;
          // Before any member is ready (bootstrap, restart) this is expected.
          if (pods.some(podReady))
            this.events.event(cluster, "Warning", "EtcdUnreachable", unreachable);
        }
      }
      const observed = await this.observe(api, members, pods, addresses, membership);
      await labelRoles(this.client, pods, observed);
      // A bootstrap cut short is finished first: until it is, etcd has no
      // quorum and cannot answer.
      const step: Step =
        resumeBootstrap(observed) ??
        (unreachable
          ? { kind: "wait", reason: unreachable }
          : nextStep(cluster.spec.replicas, observed, strays(membership, observed)));
      await this.steps.run(api, cluster, step, membership, addresses);
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
          ...(m.spec.initialCluster && m.spec.initialClusterState === "new"
            ? { bootstrap: initialNames(m.spec.initialCluster) }
            : {}),
          ready: podReady(pods.find((p) => p.metadata.labels?.[LABEL_COMPONENT] === name)),
          ...(entry ? { etcd: { id: hexId(entry.ID), learner: entry.isLearner, healthy } } : {}),
        };
      }),
    );
  }
}
