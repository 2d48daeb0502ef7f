/**
 * Where the platform dials a DataStore's endpoints. Kamaji's endpoints are
 * `host:port` as the control plane's pods see them; a Service name
 * (`<svc>.<ns>.svc[.<cluster domain>]`, what the Etcd app writes) is turned
 * into its ClusterIP through the API, since the platform's process does not
 * use the cluster's DNS, and the name is kept as the TLS server name so the
 * certificate is checked as a pod checks it. Other hosts are dialled as given.
 */
import type { KubeObject } from "../../api/index.js";
import type { Reader } from "../../client/index.js";
import { ContentNotFound } from "./content-refs.js";

export interface EtcdTarget {
  /** The endpoint as the DataStore's spec writes it. */
  endpoint: string;
  /** `https://<address>:<port>` to dial. */
  url: string;
  /** The name the server's certificate must carry, when `url` holds an address it resolved to. */
  serverName?: string;
}

const SERVICE_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\.([a-z0-9]([-a-z0-9]*[a-z0-9])?)\.svc(\..+)?$/;

interface ServiceSpec {
  spec?: { clusterIP?: string };
}

/** `host` and `port` of an endpoint, with or without a scheme; IPv6 in brackets. */
export function splitEndpoint(endpoint: string): { host: string; port: string } {
  const bare = endpoint.replace(/^[a-z]+:\/\//, "").replace(/\/.*$/, "");
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(bare) ?? /^([^:]+):(\d+)$/.exec(bare);
  return m ? { host: m[1]!, port: m[2]! } : { host: bare, port: "2379" };
}

/** The dial targets of `endpoints`; throws ContentNotFound (Unreachable) for a Service that is not there. */
export async function resolveEndpoints(
  reader: Pick<Reader, "get">,
  endpoints: readonly string[],
  signal?: AbortSignal,
): Promise<EtcdTarget[]> {
  const targets: EtcdTarget[] = [];
  for (const endpoint of endpoints) {
    const { host, port } = splitEndpoint(endpoint);
    const m = SERVICE_NAME.exec(host);
    if (!m) {
      const address = host.includes(":") ? `[${host}]` : host;
      targets.push({ endpoint, url: `https://${address}:${port}` });
      continue;
    }
    const [name, namespace] = [m[1]!, m[3]!];
    const svc = await reader
      .get<ServiceSpec & KubeObject>(
        { apiVersion: "v1", kind: "Service", namespace, name },
        signal ? { signal } : {},
      )
      .catch(() => undefined);
    const ip = svc?.spec?.clusterIP;
    if (!ip || ip === "None")
      throw new ContentNotFound({
        reason: "Unreachable",
        message: `endpoint ${endpoint}: ${svc ? "Service" : "no Service"} ${namespace}/${name}${svc ? " has no ClusterIP" : ""}`,
      });
    targets.push({
      endpoint,
      url: `https://${ip.includes(":") ? `[${ip}]` : ip}:${port}`,
      serverName: host,
    });
  }
  return targets;
}
