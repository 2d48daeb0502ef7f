import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject, Pod } from "../api/index.js";
import { type AuthConfig, CriError, GrpcCode, type Image } from "./cri/index.js";
import {
  credentialsFor,
  ImagePuller,
  type ImageService,
  pullPolicy,
  registryHost,
} from "./cri-images.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const secret = (data: Record<string, string>): KubeObject =>
  ({ apiVersion: "v1", kind: "Secret", metadata: { name: "s" }, data }) as KubeObject;

describe("CRI images: names, pull policy, pull secrets", () => {
  it("finds the registry host as Docker does (no host: docker.io)", () => {
    assert.equal(registryHost("nginx:1.22"), "docker.io");
    assert.equal(registryHost("library/nginx"), "docker.io");
    assert.equal(registryHost("registry.example/app@sha256:abc"), "registry.example");
    assert.equal(registryHost("127.0.0.1:5000/app:1"), "127.0.0.1:5000");
    assert.equal(registryHost("localhost/app"), "localhost");
  });

  it("defaults the pull policy as kube does: Always for latest or no tag, else IfNotPresent", () => {
    assert.equal(pullPolicy({ name: "c", image: "busybox" }), "Always");
    assert.equal(pullPolicy({ name: "c", image: "busybox:latest" }), "Always");
    assert.equal(pullPolicy({ name: "c", image: "127.0.0.1:5000/busybox" }), "Always");
    assert.equal(pullPolicy({ name: "c", image: "busybox:1.35" }), "IfNotPresent");
    assert.equal(pullPolicy({ name: "c", image: "127.0.0.1:5000/busybox:1" }), "IfNotPresent");
    assert.equal(pullPolicy({ name: "c", image: "app@sha256:abc" }), "IfNotPresent");
    assert.equal(pullPolicy({ name: "c", image: "busybox", imagePullPolicy: "Never" }), "Never");
  });

  it("reads credentials for the image's registry from dockerconfigjson and dockercfg Secrets", () => {
    const json = secret({
      ".dockerconfigjson": b64(
        JSON.stringify({
          auths: {
            "https://index.docker.io/v1/": { auth: b64("hub:secret:with:colons") },
            "registry.example": { username: "u", password: "p" },
          },
        }),
      ),
    });
    assert.deepEqual(credentialsFor(json, "docker.io"), {
      username: "hub",
      password: "secret:with:colons",
    });
    assert.deepEqual(credentialsFor(json, "registry.example"), { username: "u", password: "p" });
    assert.equal(credentialsFor(json, "other.example"), undefined);
    const cfg = secret({
      ".dockercfg": b64(JSON.stringify({ "registry.example": { auth: b64("a:b") } })),
    });
    assert.equal(credentialsFor(cfg, "registry.example")?.username, "a");
    assert.equal(
      credentialsFor(secret({ ".dockerconfigjson": b64("not json") }), "docker.io"),
      undefined,
    );
    assert.equal(credentialsFor(secret({ token: b64("x") }), "docker.io"), undefined);
  });
});

/** An image service whose registry refuses every pull with `refusal`, recording the credentials tried. */
function refusingRegistry(refusal: string): ImageService & { auths: (AuthConfig | undefined)[] } {
  const auths: (AuthConfig | undefined)[] = [];
  return {
    auths,
    imageStatus: async () => undefined as Image | undefined,
    pullImage: async (_spec, opts) => {
      auths.push(opts.auth);
      throw new CriError("PullImage", GrpcCode.UNKNOWN, refusal);
    },
  } as ImageService & { auths: (AuthConfig | undefined)[] };
}

const IMAGE = "127.0.0.1:5000/private/app:1";
const pod = (pullSecrets: string[] = []): Pod =>
  ({
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "default", uid: "uid-p" },
    spec: {
      containers: [{ name: "c", image: IMAGE }],
      imagePullSecrets: pullSecrets.map((name) => ({ name })),
    },
  }) as Pod;
const UNAUTHORIZED = `failed to pull and unpack image "${IMAGE}": 401 Unauthorized`;
const REFUSAL = `rpc error: code = Unknown desc = ${UNAUTHORIZED}`;

describe("CRI images: the puller", () => {
  it("gives the pull secret's credentials without a serverAddress (containerd would drop or refuse them)", async () => {
    const cri = refusingRegistry(UNAUTHORIZED);
    const regcred = secret({
      ".dockerconfigjson": b64(
        JSON.stringify({ auths: { "127.0.0.1:5000": { username: "alice", password: "pw" } } }),
      ),
    });
    const p = pod(["regcred"]);
    await new ImagePuller(cri, { baseMs: 60_000, maxMs: 60_000 }).ensure({
      pod: p,
      container: p.spec.containers[0]!,
      readSecret: async (name) => (name === "regcred" ? regcred : undefined),
      event: () => {},
    });
    assert.deepEqual(cri.auths, [{ username: "alice", password: "pw" }, undefined]);
  });

  it("ErrImagePull with the runtime's message as the kubelet words it, then ImagePullBackOff naming that error, as kubelet 1.32", async () => {
    const puller = new ImagePuller(refusingRegistry(UNAUTHORIZED), {
      baseMs: 60_000,
      maxMs: 60_000,
    });
    const events: string[] = [];
    const p = pod();
    const input = {
      pod: p,
      container: p.spec.containers[0]!,
      readSecret: async () => undefined,
      event: (_key: string, _type: string, reason: string, message: string) =>
        events.push(`${reason}: ${message}`),
    };
    const first = await puller.ensure(input);
    assert.deepEqual(first.ok ? undefined : [first.reason, first.message], [
      "ErrImagePull",
      REFUSAL,
    ]);
    const second = await puller.ensure(input);
    assert.deepEqual(second.ok ? undefined : [second.reason, second.message], [
      "ImagePullBackOff",
      `Back-off pulling image "${IMAGE}": ErrImagePull: ${REFUSAL}`,
    ]);
    assert.ok(!second.ok && second.retryMs! > 0 && second.retryMs! <= 60_000);
    assert.deepEqual(events, [
      `Pulling: Pulling image "${IMAGE}"`,
      `BackOff: Back-off pulling image "${IMAGE}"`,
    ]);
  });
});
