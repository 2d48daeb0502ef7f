/**
 * The EtcdMember reconciler: the member's claim `data-<member>` and, once the
 * cluster has told it how to start (spec.initialCluster), its Pod — recreated
 * whenever it is gone (the data stays on the claim), and not run while the
 * cluster has `replicas: 0`. Its finalizer takes the member out of etcd
 * before it goes: MemberRemove, only while the remaining voters keep a healthy
 * quorum; skipped when the whole cluster is being deleted or is gone, and
 * given up (with a Warning Event) after 5 minutes of failing, as the
 * Manager's Clock counts them.
 */
import { hasCode, type KubeObject, type Pod } from "../../../api/index.js";
import {
  type Client,
  type EventRecorder,
  errorText,
  getOptional,
  ignoreNotFound,
  type ObjectRef,
} from "../../../client/index.js";
import {
  type Cache,
  type Clock,
  DONE,
  type Request,
  type Result,
  type TypedReconciler,
} from "../../../runtime/index.js";
import type { TlsSecret } from "../../pki-secrets.js";
import { secretPems } from "../../pki-secrets.js";
import { EtcdApi } from "./etcd-api.js";
import { memberClaim, memberPod } from "./member-pod.js";
import { removeBlocked, votersToCheck } from "./quorum-guard.js";
import {
  clientUrl,
  dataClaimName,
  ETCD_API_VERSION,
  type EtcdCluster,
  type EtcdMember,
  LABEL_CLUSTER,
  MEMBER_FINALIZER,
  OPERATOR_PODS,
  peerUrl,
} from "./types.js";

/** How long a deleted member tries to leave etcd before it is released anyway. */
const LEAVE_DEADLINE_MS = 5 * 60_000;

interface Service extends KubeObject {
  spec?: { clusterIP?: string };
}

/** What the member reconciler reads besides the API: the Manager's cache and time. */
export interface MemberReconcilerDeps {
  /** Pods (the operator's scope) and Services are read here; the operator watches both. */
  cache: Pick<Cache, "get" | "list">;
  /** The leave deadline runs on it (the Manager's Clock). */
  clock: Pick<Clock, "now">;
}

export class MemberReconciler implements TypedReconciler {
  constructor(
    private readonly client: Client,
    private readonly events: EventRecorder,
    private readonly deps: MemberReconcilerDeps,
  ) {}

  /** The member's Pod, from the cache's informer of the operator's pods. */
  private cachedPod(name: string, namespace: string): Promise<Pod | undefined> {
    return getOptional<Pod>(
      {
        get: <T extends KubeObject>(ref: ObjectRef) =>
          this.deps.cache.get<T>(ref, { scope: OPERATOR_PODS }),
      },
      { apiVersion: "v1", kind: "Pod", name, namespace },
    );
  }

  /**
   * A live read. The member and its cluster are read live: the finalizer
   * patch carries the member's resourceVersion, and a cluster's deletion must
   * be seen at once (its members then skip leaving etcd). Secrets are not
   * cached at all (the operator does not watch every Secret of the cluster).
   */
  private async find<T extends KubeObject>(
    apiVersion: string,
    kind: string,
    name: string,
    ns: string,
  ): Promise<T | undefined> {
    return getOptional<T>(this.client, { apiVersion, kind, name, namespace: ns });
  }

  async reconcile({ namespace = "", name }: Request): Promise<Result> {
    const member = await this.find<EtcdMember>(ETCD_API_VERSION, "EtcdMember", name, namespace);
    if (!member) return DONE;
    const cluster = await this.find<EtcdCluster>(
      ETCD_API_VERSION,
      "EtcdCluster",
      member.spec.cluster,
      namespace,
    );
    const finalizers = member.metadata.finalizers ?? [];
    if (member.metadata.deletionTimestamp) {
      if (!finalizers.includes(MEMBER_FINALIZER)) return DONE;
      if (cluster && !cluster.metadata.deletionTimestamp) {
        try {
          await this.leaveEtcd(cluster, member);
        } catch (e) {
          // No stuck finalizer: after a bounded time the member goes anyway; the
          // cluster removes what etcd still lists of it once it is healthy.
          const since = Date.parse(member.metadata.deletionTimestamp);
          if (this.deps.clock.now() - since < LEAVE_DEADLINE_MS) throw e;
          this.events.event(
            member,
            "Warning",
            "MemberRemoveSkipped",
            `released without leaving etcd after ${LEAVE_DEADLINE_MS / 60_000} minutes: ${errorText(e)}`,
          );
        }
      }
      await this.setFinalizers(
        member,
        finalizers.filter((f) => f !== MEMBER_FINALIZER),
      );
      return DONE;
    }
    if (!cluster) return DONE; // the garbage collector takes an orphan
    if (!finalizers.includes(MEMBER_FINALIZER))
      await this.setFinalizers(member, [...finalizers, MEMBER_FINALIZER]);

    if (!(await this.find("v1", "PersistentVolumeClaim", dataClaimName(name), namespace)))
      await this.client.create(memberClaim(cluster, member));
    if (!member.spec.initialCluster) return DONE;
    // The member's Service and Pod come from the cache: the operator watches
    // both, so a pass that saw a stale copy is followed by one that sees the news.
    const address = (
      await getOptional<Service>(this.deps.cache, {
        apiVersion: "v1",
        kind: "Service",
        name,
        namespace,
      })
    )?.spec?.clusterIP;
    if (!address) return { requeueAfter: 1_000 };

    let pod = await this.cachedPod(name, namespace);
    if (cluster.spec.replicas === 0) {
      if (pod && !pod.metadata.deletionTimestamp)
        await ignoreNotFound(
          this.client.delete({ apiVersion: "v1", kind: "Pod", name, namespace }),
        );
    } else if (!pod) {
      try {
        pod = await this.client.create(memberPod(cluster, member, address));
      } catch (e) {
        // The cache has not seen the pod this reconciler created a moment ago
        // (or a terminating one is still there): its event brings the next pass.
        if (hasCode(e, 409)) return DONE;
        throw e;
      }
      this.events.event(member, "Normal", "PodCreated", `created pod ${name}`);
    }
    const ready =
      pod?.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True") === true;
    const podIP = pod?.status?.podIP;
    if (member.status?.ready !== ready || member.status?.podIP !== podIP)
      await this.client.patchStatus(
        { apiVersion: ETCD_API_VERSION, kind: "EtcdMember", name, namespace },
        { status: { ready, podIP: podIP ?? null } },
        { type: "merge" },
      );
    return DONE;
  }

  private async setFinalizers(member: EtcdMember, finalizers: string[]): Promise<void> {
    await this.client.patch(
      {
        apiVersion: ETCD_API_VERSION,
        kind: "EtcdMember",
        name: member.metadata.name!,
        namespace: member.metadata.namespace,
      },
      { metadata: { finalizers, resourceVersion: member.metadata.resourceVersion } },
      { type: "merge" },
    );
  }

  /**
   * MemberRemove of this member, if etcd still lists it and it is not the last
   * one, once every other voter answers (so the cluster keeps its quorum).
   */
  private async leaveEtcd(cluster: EtcdCluster, member: EtcdMember): Promise<void> {
    const ns = member.metadata.namespace!;
    const name = member.metadata.name!;
    const tls = cluster.spec.tls.client;
    const own = await this.find<TlsSecret>("v1", "Secret", tls.clientSecretRef.name, ns);
    const ca = await this.find<TlsSecret>("v1", "Secret", tls.caSecretRef.name, ns);
    if (!own || !ca)
      throw new Error(`cannot remove member ${name} from etcd: the client Secrets are missing`);
    // A Service the cache has not seen yet only means one endpoint fewer to ask:
    // the voters to check come from etcd's own member list, read live.
    const services = (
      await this.deps.cache.list<Service>(
        { apiVersion: "v1", kind: "Service" },
        {
          namespace: ns,
          labelSelector: `${LABEL_CLUSTER}=${cluster.metadata.name}`,
        },
      )
    ).items;
    const address = (svc: string) => services.find((s) => s.metadata.name === svc)?.spec?.clusterIP;
    const mine = address(name);
    const endpoints = services
      .map((s) => s.spec?.clusterIP)
      .filter((ip): ip is string => !!ip && ip !== "None" && ip !== mine)
      .map(clientUrl);
    const pems = secretPems(own);
    const api = new EtcdApi(endpoints, {
      caPem: secretPems(ca).cert,
      certPem: pems.cert,
      keyPem: pems.key,
    });
    try {
      const { members } = await api.membership();
      const me = members.find(
        (e) => e.name === name || (mine && e.peerURLs.includes(peerUrl(mine))),
      );
      const voters = votersToCheck(members, me);
      if (!me || !voters) return;
      const answers = await Promise.all(voters.map((e) => api.status(e.clientURLs[0] ?? "")));
      const why = removeBlocked(
        name,
        answers.map((a) => a !== undefined),
      );
      if (why) {
        this.events.event(member, "Warning", "RemoveBlocked", why);
        throw new Error(why);
      }
      await api.remove(me.ID);
      this.events.event(member, "Normal", "MemberRemoved", `member ${name} removed from etcd`);
    } finally {
      api.close();
    }
  }
}
