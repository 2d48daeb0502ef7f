/**
 * A container's image through CRI, as the kubelet's image manager does it:
 * `imagePullPolicy` (Always; IfNotPresent, the default for a tagged image;
 * Never), `imagePullSecrets` tried in order for the image's registry (then no
 * credentials), pull errors as `ErrImagePull` with the runtime's message (in
 * Go gRPC's wording, as the kubelet shows it), and
 * between failed pulls a back-off (`ImagePullBackOff`, 10 s doubling to 5 min)
 * per pod, container and image, whose message ends with the last pull's error
 * as kubelet 1.32's does (`Back-off pulling image "x": ErrImagePull: …`).
 * Events: Pulling, Pulled, Failed, BackOff.
 */
import type { Container, KubeObject, Pod } from "../api/index.js";
import { type BackoffOptions, CrashLoopBackoff } from "./backoff.js";
import { type AuthConfig, type CriClient, CriError, type Image } from "./cri/index.js";
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

/**
 * The credentials a dockerconfigjson (or dockercfg) Secret holds for `host`,
 * without a `serverAddress`, as the kubelet sends them: containerd 1.6 gives
 * credentials that carry one only to a host equal to `url.Parse(serverAddress).Host`,
 * so the key of a dockerconfigjson (`127.0.0.1:5000`, with no scheme) would
 * fail the pull ("parse server address") or never be sent.
 */
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
    if (username) return { username, password: password ?? "" };
  }
  return undefined;
}

export interface EnsureImageInput {
  pod: Pod;
  container: Container;
  readSecret(name: string): Promise<KubeObject | undefined>;
  event: Event;
}

/** What the puller needs of the runtime's image service. */
export type ImageService = Pick<CriClient, "imageStatus" | "pullImage">;

export class ImagePuller {
  private readonly backoff: CrashLoopBackoff;
  /** The last failed pull of each pod/container/image: when, and the runtime's error. */
  private readonly failed = new Map<string, { at: number; message: string }>();

  constructor(
    private readonly cri: ImageService,
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
    const failed = this.failed.get(key);
    if (failed !== undefined) {
      const wait = this.backoff.restartDelay(key, failed.at);
      if (wait > 0) {
        const backOff = `Back-off pulling image "${ref}"`;
        input.event(`pull-backoff/${c.name}/${failed.at}`, "Normal", "BackOff", backOff);
        return {
          ok: false,
          reason: "ImagePullBackOff",
          message: `${backOff}: ErrImagePull: ${failed.message}`,
          retryMs: wait,
        };
      }
    }
    input.event(
      `pulling/${c.name}/${failed?.at ?? 0}`,
      "Normal",
      "Pulling",
      `Pulling image "${ref}"`,
    );
    const started = Date.now();
    try {
      await this.pull(ref, input);
    } catch (e) {
      const now = Date.now();
      // The kubelet's wording of a runtime's refusal: `rpc error: code = Unknown desc = …`.
      const message = e instanceof CriError ? e.statusText : (e as Error).message;
      this.failed.set(key, { at: now, message });
      this.backoff.restartDelay(key, now);
      return {
        ok: false,
        reason: "ErrImagePull",
        message,
        retryMs: this.backoff.currentDelay(key),
      };
    }
    this.failed.delete(key);
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
    for (const key of this.failed.keys()) if (key.startsWith(`${uid}/`)) this.failed.delete(key);
  }
}
