/**
 * A container's environment, in the kubelet's order: the agent's own
 * variables (PATH, HOME, HOSTNAME, POD_IP), the image's ENV, the service links
 * (unless `enableServiceLinks: false`; see `service-env.ts`), `envFrom`
 * (ConfigMaps and Secrets, with prefix), then `env` (literal values with
 * `$(VAR)` expansion over what came before, or `valueFrom` a pod field, a
 * container resource, a ConfigMap key or a Secret key). A missing ConfigMap,
 * Secret or key that is not optional is a `ContainerConfigError`.
 */
import type { Container, KubeObject, Pod } from "../api/index.js";
import { expand } from "./expansion.js";
import {
  ContainerConfigError,
  type NodeAllocatable,
  podFieldValue,
  resourceFieldValue,
} from "./field-ref.js";
import { serviceEnv } from "./service-env.js";

const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

export interface EnvContext {
  pod: Pod;
  podIP: string;
  hostIP: string;
  hostname: string;
  node: NodeAllocatable;
  imageEnv: Record<string, string>;
  /** Reads a ConfigMap or Secret of the pod's namespace; undefined when absent. */
  read(kind: "ConfigMap" | "Secret", name: string): Promise<KubeObject | undefined>;
  /** The Services of the pod's namespace, as they are now. */
  services(): Promise<KubeObject[]>;
}

/** The string values of a ConfigMap (data and binaryData) or a Secret (decoded). */
export function objectData(kind: "ConfigMap" | "Secret", obj: KubeObject): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const data = (obj.data ?? {}) as Record<string, string>;
  for (const [k, v] of Object.entries(data))
    out.set(k, kind === "Secret" ? Buffer.from(v, "base64") : Buffer.from(v, "utf8"));
  for (const [k, v] of Object.entries((obj.binaryData ?? {}) as Record<string, string>))
    out.set(k, Buffer.from(v, "base64"));
  return out;
}

async function keyValue(
  ctx: EnvContext,
  kind: "ConfigMap" | "Secret",
  ref: { name?: string; key: string; optional?: boolean },
): Promise<string | undefined> {
  const obj = await ctx.read(kind, ref.name ?? "");
  const what = kind === "Secret" ? "secret" : "configmap";
  if (!obj) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`${what} ${JSON.stringify(ref.name ?? "")} not found`);
  }
  const value = objectData(kind, obj).get(ref.key);
  if (value === undefined) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(
      `couldn't find key ${ref.key} in ${kind} ${ctx.pod.metadata.namespace}/${ref.name ?? ""}`,
    );
  }
  return value.toString("utf8");
}

/** The environment as an ordered map (later definitions replace earlier ones). */
export async function containerEnv(c: Container, ctx: EnvContext): Promise<Map<string, string>> {
  const env = new Map<string, string>([
    ["PATH", DEFAULT_PATH],
    ["HOME", "/root"],
    ["HOSTNAME", ctx.hostname],
    ["POD_IP", ctx.podIP],
  ]);
  for (const [k, v] of Object.entries(ctx.imageEnv)) env.set(k, v);
  if (ctx.pod.spec.enableServiceLinks !== false)
    for (const [k, v] of serviceEnv(await ctx.services())) env.set(k, v);
  for (const source of c.envFrom ?? []) {
    const kind = source.secretRef ? "Secret" : "ConfigMap";
    const ref = source.secretRef ?? source.configMapRef;
    if (!ref) continue;
    const obj = await ctx.read(kind, ref.name ?? "");
    if (!obj) {
      if (ref.optional) continue;
      throw new ContainerConfigError(
        `${kind === "Secret" ? "secret" : "configmap"} ${JSON.stringify(ref.name ?? "")} not found`,
      );
    }
    for (const [k, v] of objectData(kind, obj)) {
      const name = `${source.prefix ?? ""}${k}`;
      if (ENV_NAME.test(name)) env.set(name, v.toString("utf8"));
    }
  }
  for (const v of c.env ?? []) {
    const from = v.valueFrom;
    let value: string | undefined;
    if (!from) value = expand(v.value ?? "", env);
    else if (from.fieldRef)
      value = podFieldValue(ctx.pod, from.fieldRef, { podIP: ctx.podIP, hostIP: ctx.hostIP });
    else if (from.resourceFieldRef)
      value = resourceFieldValue(ctx.pod, from.resourceFieldRef, c, ctx.node);
    else if (from.configMapKeyRef) value = await keyValue(ctx, "ConfigMap", from.configMapKeyRef);
    else if (from.secretKeyRef) value = await keyValue(ctx, "Secret", from.secretKeyRef);
    if (value !== undefined) env.set(v.name, value);
  }
  return env;
}

/** The process argv: `command` replaces the image's entrypoint (and CMD), `args` replaces CMD. */
export function containerArgv(
  c: Container,
  image: { entrypoint: string[]; cmd?: string[] },
  env: ReadonlyMap<string, string>,
): string[] {
  const command = c.command?.length ? c.command.map((s) => expand(s, env)) : image.entrypoint;
  const args = c.args
    ? c.args.map((s) => expand(s, env))
    : c.command?.length
      ? []
      : (image.cmd ?? []);
  return [...command, ...args];
}
