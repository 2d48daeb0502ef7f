/**
 * The kubelet's service links (`enableServiceLinks`, default true): for every
 * Service of the pod's namespace that has a ClusterIP when the container
 * starts, Docker-link style variables, so a pod finds `etcd-client` as
 * `$(ETCD_CLIENT_SERVICE_HOST)` without DNS. Names are the Service's name
 * upper-cased with `-` turned into `_`; the values are as kubelet's
 * `envvars.FromServices` writes them.
 */
import type { KubeObject } from "../api/index.js";

interface ServicePort {
  name?: string;
  port: number;
  protocol?: string;
}

/** The fields of a Service the variables are made from. */
interface Service extends KubeObject {
  spec?: { clusterIP?: string; ports?: ServicePort[] };
}

const varName = (s: string) => s.toUpperCase().replaceAll("-", "_");

/** The variables of `services` (the pod's namespace), in kubelet's order. */
export function serviceEnv(services: readonly KubeObject[]): Map<string, string> {
  const env = new Map<string, string>();
  for (const svc of services as readonly Service[]) {
    const ip = svc.spec?.clusterIP;
    const ports = svc.spec?.ports ?? [];
    if (!ip || ip === "None" || ports.length === 0) continue;
    const prefix = varName(svc.metadata.name ?? "");
    env.set(`${prefix}_SERVICE_HOST`, ip);
    env.set(`${prefix}_SERVICE_PORT`, String(ports[0]!.port));
    for (const p of ports)
      if (p.name) env.set(`${prefix}_SERVICE_PORT_${varName(p.name)}`, String(p.port));
    const host = ip.includes(":") ? `[${ip}]` : ip;
    ports.forEach((p, i) => {
      const proto = (p.protocol ?? "TCP").toLowerCase();
      const url = `${proto}://${host}:${p.port}`;
      // Docker special-cases the first port.
      if (i === 0) env.set(`${prefix}_PORT`, url);
      const portPrefix = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
      env.set(portPrefix, url);
      env.set(`${portPrefix}_PROTO`, proto);
      env.set(`${portPrefix}_PORT`, String(p.port));
      env.set(`${portPrefix}_ADDR`, ip);
    });
  }
  return env;
}
