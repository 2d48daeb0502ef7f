/**
 * The Etcd app's post-delete hook (Cozystack's etcd chart deletes its PVCs and
 * TLS Secrets after an uninstall; here it also waits for the disks): once the
 * engine has deleted the EtcdCluster, wait until no EtcdMember or Pod of the
 * cluster remains (nothing still writes to a volume), delete the members' data
 * claims and the five TLS Secrets (the CA and client Secrets outlive the
 * cluster on purpose), and wait until the claims' volumes are gone. A volume
 * its reclaim policy keeps (Retain) or that failed to be freed is reported as
 * residue rather than waited on forever.
 */
import type { KubeObject } from "../../../api/index.js";
import { type Client, ignoreNotFound } from "../../../client/index.js";
import type { HookContext, HookPermission, HookResult } from "../../engine/module.js";
import { dataClaimName, ETCD_API_VERSION, LABEL_CLUSTER } from "../../operators/etcd/index.js";
import { TLS_SECRETS } from "./naming.js";

export const CLEANUP_PERMISSIONS: HookPermission[] = [
  { apiVersion: ETCD_API_VERSION, kind: "EtcdMember", verbs: ["list"] },
  { apiVersion: "v1", kind: "Pod", verbs: ["list"] },
  { apiVersion: "v1", kind: "PersistentVolumeClaim", verbs: ["list", "delete"] },
  { apiVersion: "v1", kind: "PersistentVolume", verbs: ["list"] },
  { apiVersion: "v1", kind: "Secret", verbs: ["delete"] },
];

interface Volume extends KubeObject {
  spec?: {
    claimRef?: { namespace?: string; name?: string };
    persistentVolumeReclaimPolicy?: string;
  };
  status?: { phase?: string };
}

async function deleteIfPresent(
  client: Client,
  kind: string,
  name: string,
  namespace: string,
): Promise<void> {
  await ignoreNotFound(client.delete({ apiVersion: "v1", kind, name, namespace }));
}

const names = (objs: KubeObject[]) =>
  objs
    .slice(0, 5)
    .map((o) => o.metadata.name)
    .join(", ");

/** The data claim name pattern of `cluster`'s members (`data-<cluster>-<5 random>`). */
const isDataClaim = (cluster: string, name: string | undefined) =>
  name !== undefined && new RegExp(`^${dataClaimName(cluster)}-[a-z0-9]{5}$`).test(name);

export async function postDelete({ app, client }: HookContext): Promise<HookResult> {
  const cluster = app.metadata.name!;
  const namespace = app.metadata.namespace!;
  const selector = { namespace, labelSelector: `${LABEL_CLUSTER}=${cluster}` };
  const running = [
    ...(await client.list({ apiVersion: ETCD_API_VERSION, kind: "EtcdMember" }, selector)).items,
    ...(await client.list({ apiVersion: "v1", kind: "Pod" }, selector)).items,
  ];
  if (running.length > 0)
    return {
      done: false,
      waitingFor: `${running.length} members and pods of EtcdCluster ${cluster} to be gone (${names(running)})`,
    };
  const claims = (
    await client.list({ apiVersion: "v1", kind: "PersistentVolumeClaim" }, selector)
  ).items.filter((c) => isDataClaim(cluster, c.metadata.name));
  for (const c of claims)
    if (!c.metadata.deletionTimestamp)
      await deleteIfPresent(client, "PersistentVolumeClaim", c.metadata.name!, namespace);
  for (const name of Object.values(TLS_SECRETS))
    await deleteIfPresent(client, "Secret", name, namespace);
  if (claims.length > 0)
    return {
      done: false,
      waitingFor: `${claims.length} data claims to be deleted (${names(claims)})`,
    };
  const volumes = (
    (await client.list({ apiVersion: "v1", kind: "PersistentVolume" })).items as Volume[]
  ).filter(
    (v) => v.spec?.claimRef?.namespace === namespace && isDataClaim(cluster, v.spec.claimRef.name),
  );
  const kept = volumes.filter(
    (v) => v.spec?.persistentVolumeReclaimPolicy === "Retain" || v.status?.phase === "Failed",
  );
  const freeing = volumes.filter((v) => !kept.includes(v));
  if (freeing.length > 0)
    return { done: false, waitingFor: `${freeing.length} volumes to be freed (${names(freeing)})` };
  if (kept.length === 0) return { done: true };
  return {
    done: true,
    residue: kept.map(
      (v) =>
        `PersistentVolume ${v.metadata.name} (claim ${namespace}/${v.spec?.claimRef?.name}): ${v.status?.phase === "Failed" ? "could not be freed" : "kept by its Retain policy"}`,
    ),
  };
}
