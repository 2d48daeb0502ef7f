/**
 * The EtcdMember reconciler: the member's claim `data-<member>` and, once the
 * cluster has told it how to start (spec.initialCluster), its Pod — recreated
 * whenever it is gone (the data stays on the claim), and not run while the
 * cluster has `replicas: 0`. Its finalizer takes the member out of etcd
 * before it goes: MemberRemove, only while the remaining voters keep a healthy
 * quorum; skipped when the whole cluster is being deleted or is gone, and
 * given up (with a Warning Event) after 5 minutes of failing.
 */
import type { KubeObject, Pod } from "../../../api/index.js";
import { type Client, type EventRecorder, errorText, getOptional } from "../../../client/index.js";
import { DONE, type Request, type Result, type TypedReconciler } from "../../../runtime/index.js";
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
  peerUrl,
} from "./types.js";

/** How long a deleted member tries to leave etcd before it is released anyway. */
const LEAVE_DEADLINE_MS = 5 * 60_000;

interface Service extends KubeObject {
  spec?: { clusterIP?: string };
}

export class MemberReconciler implements TypedReconciler {
  constructor(
    private readonly client: Client,
    private readonly events: EventRecorder,
  ) {}

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
          if (Date.now() - since < LEAVE_DEADLINE_MS) throw e;
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
    const address = (await this.find<Service>("v1", "Service", name, namespace))?.spec?.clusterIP;
    if (!address) return { requeueAfter: 1_000 };

    let pod = await this.find<Pod>("v1", "Pod", name, namespace);
    if (cluster.spec.replicas === 0) {
      if (pod && !pod.metadata.deletionTimestamp)
        await this.client.delete({ apiVersion: "v1", kind: "Pod", name, namespace });
    } else if (!pod) {
      pod = await this.client.create(memberPod(cluster, member, address));
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
    const services = (
      await this.client.list<Service>(
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
