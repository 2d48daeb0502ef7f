import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../api/index.js";
import { credentialsFor, pullPolicy, registryHost } from "./cri-images.js";

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
      serverAddress: "https://index.docker.io/v1/",
    });
    assert.deepEqual(credentialsFor(json, "registry.example"), {
      username: "u",
      password: "p",
      serverAddress: "registry.example",
    });
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
