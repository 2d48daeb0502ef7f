/**
 * Cluster DNS as `hearth up` runs it: the server (dns-server.ts) bound on
 * the node's pod-bridge gateway, and on a Manager two controllers: the zone,
 * rebuilt whole from the cache's Services and labelled EndpointSlices on any
 * change of either (every event maps to one request, so a burst makes one
 * rebuild more, as the nftables rules), and the kube-dns Service and its
 * EndpointSlice, server-side applied by Hearth's field manager whenever one
 * of them changes (so an edit is put back). The server answers from the last
 * zone built; before the first one, in-zone queries get SERVFAIL. When the
 * signal aborts the Manager stops and the sockets close.
 */
import type { Client } from "../../client/index.js";
import {
  type Cache,
  type Manager,
  type ManagerOptions,
  onStop,
  runOnOwnManager,
} from "../../runtime/index.js";
import type { EndpointSliceObject, ServiceObject } from "../nft/types.js";
import { SERVICE_NAME_LABEL } from "../nft/types.js";
import { KUBE_DNS_NAME, KUBE_DNS_NAMESPACE } from "./cluster-dns.js";
import { DnsServer } from "./dns-server.js";
import { forwardQuery, type Upstream } from "./forwarder.js";
import {
  KUBE_DNS_MANAGER,
  KUBE_DNS_SLICE,
  type KubeDnsFacts,
  kubeDnsService,
  kubeDnsSlice,
} from "./kube-dns-objects.js";
import type { ResolvConf } from "./resolv-conf.js";
import { buildZone, type Zone } from "./zone.js";

const SERVICE = { apiVersion: "v1", kind: "Service" };
const ENDPOINT_SLICE = { apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" };
const SLICES = { scope: { labelSelector: SERVICE_NAME_LABEL } };
const ZONE = { name: "zone" };
const KUBE_DNS = { namespace: KUBE_DNS_NAMESPACE, name: KUBE_DNS_NAME };

export interface ClusterDnsOptions extends KubeDnsFacts {
  /** The host's resolver configuration: its nameservers are the upstreams. */
  resolvConf: ResolvConf;
  /** Manager options (the shared cache of `hearth up`'s core controllers). */
  manager?: ManagerOptions;
  log?(msg: string, err?: unknown): void;
}

/** The upstreams of a resolv.conf, port 53, without the server's own address (no loop). */
export function upstreamsOf(conf: ResolvConf, own: { address: string; port: number }): Upstream[] {
  return conf.nameservers
    .filter((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a))
    .filter((a) => !(a === own.address && own.port === 53))
    .map((address) => ({ address, port: 53 }));
}

function registerZone(m: Manager, setZone: (z: Zone) => void, domain: string): void {
  const cache: Cache = m.cache;
  m.controller("cluster-dns-zone")
    .watches(SERVICE, () => [ZONE])
    .watches(ENDPOINT_SLICE, () => [ZONE], SLICES)
    // Once after the caches synced, should there be no object at all.
    .watchesRaw(async (queue) => queue.add(ZONE))
    .complete({
      reconcile: async () => {
        const services = (await cache.list<ServiceObject>(SERVICE, { noCopy: true })).items;
        const slices = (
          await cache.list<EndpointSliceObject>(ENDPOINT_SLICE, { ...SLICES, noCopy: true })
        ).items;
        setZone(buildZone(domain, services, slices));
        return {};
      },
    });
}

function registerKubeDns(m: Manager, client: Client, facts: KubeDnsFacts): void {
  const mine = (o: { metadata: { namespace?: string; name?: string } }) =>
    o.metadata.namespace === KUBE_DNS_NAMESPACE &&
    (o.metadata.name === KUBE_DNS_NAME || o.metadata.name === KUBE_DNS_SLICE);
  const apply = { fieldManager: KUBE_DNS_MANAGER, force: true };
  m.controller("cluster-dns-service")
    .watches(SERVICE, (o) => (mine(o) ? [KUBE_DNS] : []))
    .watches(ENDPOINT_SLICE, (o) => (mine(o) ? [KUBE_DNS] : []), SLICES)
    .watchesRaw(async (queue) => queue.add(KUBE_DNS))
    .complete({
      reconcile: async (_req, ctx) => {
        await client.apply(kubeDnsService(facts), { ...apply, signal: ctx.signal });
        await client.apply(kubeDnsSlice(facts), { ...apply, signal: ctx.signal });
        return {};
      },
    });
}

/** Binds the server, then runs its controllers until `signal` aborts; resolves once all is closed. */
export async function startClusterDns(
  client: Client,
  signal: AbortSignal,
  o: ClusterDnsOptions,
): Promise<{ port: number; done: Promise<void> }> {
  let zone: Zone | undefined;
  const upstreams = upstreamsOf(o.resolvConf, o);
  const server = new DnsServer(
    {
      zone: () => zone,
      ...(upstreams.length > 0
        ? { forward: (q: Buffer, tcp: boolean) => forwardQuery(q, upstreams, tcp) }
        : {}),
    },
    o.log,
  );
  await server.listen(o.address, o.port);
  const facts = { ...o, port: server.port };
  const done = runOnOwnManager(
    client,
    signal,
    (m) => {
      registerZone(
        m,
        (z) => {
          zone = z;
        },
        o.domain,
      );
      registerKubeDns(m, client, facts);
      m.add(onStop(() => server.close()));
    },
    { ...(o.log ? { log: o.log } : {}), ...o.manager },
  ).finally(() => server.close());
  return { port: server.port, done };
}
