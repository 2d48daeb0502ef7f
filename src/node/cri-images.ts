/**
 * A container's image through CRI, as the kubelet's image manager does it:
 * `imagePullPolicy` (Always; IfNotPresent, the default for a tagged image;
 * Never), `imagePullSecrets` tried in order for the image's registry (then no
 * credentials), pull errors as `ErrImagePull` with the runtime's message, and
 * between failed pulls a back-off (`ImagePullBackOff`, 10 s doubling to 5 min)
 * per pod, container and image. Events: Pulling, Pulled, Failed, BackOff.
 */
import type { Container, KubeObject, Pod } from "../api/index.js";
import { type BackoffOptions, CrashLoopBackoff } from "./backoff.js";
import type { AuthConfig, CriClient, Image } from "./cri/index.js";
import type { StartDecision } from "./pod-runtime.js";

type Failed = Extract<StartDecision, { ok: false }>;
type Event = (key: string, type: "Normal" | "Warning", reason: string, message: string) => void;

/** The registry host of an image reference, as Docker resolves it (no host: docker.io). */
export function registryHost(ref: string): string {
  const slash = ref.indexOf("/");
  if (slash < 0) return "docker.io";
  const first = ref.slice(0, slash);
  return first.includes(".") || first.includes(":") || first === "localhost" ? first : "docker.io";
}

/** The pull policy kube defaults to: Always for `:latest` or no tag, else IfNotPresent. */
export function pullPolicy(c: Container): string {
  if (c.imagePullPolicy) return c.imagePullPolicy;
  const ref = c.image ?? "";
  if (ref.includes("@")) return "IfNotPresent";
  const last = ref.slice(ref.lastIndexOf("/") + 1);
  const tag = last.includes(":") ? last.slice(last.indexOf(":") + 1) : "latest";
  return tag === "latest" ? "Always" : "IfNotPresent";
}

/** The credentials a dockerconfigjson (or dockercfg) Secret holds for `host`. */
export function credentialsFor(secret: KubeObject, host: string): AuthConfig | undefined {
  const data = (secret as { data?: Record<string, string> }).data ?? {};
  const raw = data[".dockerconfigjson"] ?? data[".dockercfg"];
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
  const auths = (data[".dockerconfigjson"] ? (parsed as { auths?: unknown }).auths : parsed) as
    | Record<string, { auth?: string; username?: string; password?: string }>
    | undefined;
  if (!auths || typeof auths !== "object") return undefined;
  const hostOf = (key: string) => key.replace(/^https?:\/\//, "").replace(/\/.*$/, "");
  const wanted =
    host === "docker.io" ? ["docker.io", "index.docker.io", "registry-1.docker.io"] : [host];
  for (const [key, entry] of Object.entries(auths)) {
    if (!wanted.includes(hostOf(key)) || !entry || typeof entry !== "object") continue;
    let { username, password } = entry;
    if (entry.auth && !username) {
      const text = Buffer.from(entry.auth, "base64").toString("utf8");
      const colon = text.indexOf(":");
      if (colon > 0) [username, password] = [text.slice(0, colon), text.slice(colon + 1)];
    }
    if (username) return { username, password: password ?? "", serverAddress: key };
  }
  return undefined;
}

export interface EnsureImageInput {
  pod: Pod;
  container: Container;
  readSecret(name: string): Promise<KubeObject | undefined>;
  event: Event;
}

export class ImagePuller {
  private readonly backoff: CrashLoopBackoff;
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly cri: CriClient,
    backoff: BackoffOptions,
  ) {
    this.backoff = new CrashLoopBackoff(backoff);
  }

  /** The image, present on the node (pulled if the policy says so), or why not. */
  async ensure(input: EnsureImageInput): Promise<{ ok: true; image: Image } | Failed> {
    const { pod, container: c } = input;
    const ref = c.image ?? "";
    if (!ref || /\s/.test(ref))
      return {
        ok: false,
        reason: "InvalidImageName",
        message: `Failed to apply default image tag ${JSON.stringify(ref)}: couldn't parse image name`,
      };
    const policy = pullPolicy(c);
    const present = await this.cri.imageStatus({ image: ref }, {});
    if (present && policy !== "Always") return { ok: true, image: present };
    if (!present && policy === "Never")
      return {
        ok: false,
        reason: "ErrImageNeverPull",
        message: `Container image "${ref}" is not present with pull policy of Never`,
      };
    const key = `${pod.metadata.uid}/${c.name}/${ref}`;
    const failed = this.failedAt.get(key);
    if (failed !== undefined) {
      const wait = this.backoff.restartDelay(key, failed);
      if (wait > 0) {
        input.event(
          `pull-backoff/${c.name}/${failed}`,
          "Normal",
          "BackOff",
          `Back-off pulling image "${ref}"`,
        );
        return {
          ok: false,
          reason: "ImagePullBackOff",
          message: `Back-off pulling image "${ref}"`,
          retryMs: wait,
        };
      }
    }
    input.event(`pulling/${c.name}/${failed ?? 0}`, "Normal", "Pulling", `Pulling image "${ref}"`);
    const started = Date.now();
    try {
      await this.pull(ref, input);
    } catch (e) {
      const now = Date.now();
      this.failedAt.set(key, now);
      this.backoff.restartDelay(key, now);
      return {
        ok: false,
        reason: "ErrImagePull",
        message: (e as Error).message,
        retryMs: this.backoff.currentDelay(key),
      };
    }
    this.failedAt.delete(key);
    this.backoff.forget(key);
    const image = await this.cri.imageStatus({ image: ref }, {});
    if (!image)
      return {
        ok: false,
        reason: "ErrImagePull",
        message: `image ${ref} is not present after its pull`,
      };
    const secs = ((Date.now() - started) / 1000).toFixed(3);
    input.event(
      `pulled/${c.name}/${started}`,
      "Normal",
      "Pulled",
      `Successfully pulled image "${ref}" in ${secs}s`,
    );
    return { ok: true, image };
  }

  /** Pulls with each matching pull secret in turn, then without credentials; throws the last error. */
  private async pull(ref: string, input: EnsureImageInput): Promise<void> {
    const host = registryHost(ref);
    const auths: (AuthConfig | undefined)[] = [];
    for (const s of input.pod.spec.imagePullSecrets ?? []) {
      if (!s.name) continue;
      const secret = await input.readSecret(s.name);
      const auth = secret && credentialsFor(secret, host);
      if (auth) auths.push(auth);
    }
    auths.push(undefined);
    let last: unknown;
    for (const auth of auths) {
      try {
        await this.cri.pullImage({ image: ref }, { ...(auth ? { auth } : {}), timeoutMs: 300_000 });
        return;
      } catch (e) {
        last = e;
      }
    }
    throw last;
  }

  /** Forgets the back-off of a pod that is gone. */
  forget(uid: string): void {
    this.backoff.forget(`${uid}/`);
    for (const key of this.failedAt.keys())
      if (key.startsWith(`${uid}/`)) this.failedAt.delete(key);
  }
}
