import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject, Pod } from "../api/index.js";
import { containerArgv, containerEnv, type EnvContext } from "./env.js";
import { ContainerConfigError, formatMap, resourceFieldValue } from "./field-ref.js";

const pod: Pod = {
  apiVersion: "v1",
  kind: "Pod",
  metadata: { name: "etcd-0", namespace: "db", uid: "u-1", labels: { app: "etcd" } },
  spec: {
    nodeName: "n1",
    containers: [{ name: "etcd", image: "etcd", resources: { limits: { memory: "1Gi" } } }],
  },
};

const objects: Record<string, KubeObject> = {
  "ConfigMap/conf": {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "conf" },
    data: { LEVEL: "debug", "bad key": "x" },
  },
  "Secret/creds": {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "creds" },
    data: { password: Buffer.from("s3cret").toString("base64") },
  },
};

function ctx(): EnvContext {
  return {
    pod,
    podIP: "127.1.0.7",
    hostIP: "127.0.0.1",
    hostname: "etcd-0",
    node: { cpu: "4", memory: "8Gi" },
    imageEnv: { FROM_IMAGE: "1", LEVEL: "info" },
    read: async (kind, name) => objects[`${kind}/${name}`],
    services: async () => [
      {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "etcd-client", namespace: "db" },
        spec: { clusterIP: "127.64.0.9", ports: [{ name: "client", port: 2379 }] },
      },
    ],
  };
}

describe("containerEnv", () => {
  it("layers agent, image, envFrom and env, expanding $(VAR) over what came before", async () => {
    const env = await containerEnv(
      {
        name: "etcd",
        resources: { limits: { memory: "1Gi" } },
        envFrom: [
          { configMapRef: { name: "conf" } },
          { prefix: "S_", secretRef: { name: "creds" } },
        ],
        env: [
          { name: "MY_IP", valueFrom: { fieldRef: { fieldPath: "status.podIP" } } },
          { name: "URL", value: "http://$(MY_IP):2379/$(NOPE)" },
          { name: "APP", valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
          { name: "PW", valueFrom: { secretKeyRef: { name: "creds", key: "password" } } },
          {
            name: "OPT",
            valueFrom: { configMapKeyRef: { name: "gone", key: "k", optional: true } },
          },
          {
            name: "MEM",
            valueFrom: { resourceFieldRef: { resource: "limits.memory", divisor: "1Mi" } },
          },
        ],
      },
      ctx(),
    );
    assert.equal(env.get("POD_IP"), "127.1.0.7");
    assert.equal(env.get("HOSTNAME"), "etcd-0");
    assert.equal(env.get("FROM_IMAGE"), "1");
    assert.equal(env.get("LEVEL"), "debug", "envFrom replaces the image's ENV");
    assert.equal(env.has("bad key"), false, "invalid names from envFrom are skipped");
    assert.equal(env.get("S_password"), "s3cret");
    assert.equal(env.get("URL"), "http://127.1.0.7:2379/$(NOPE)");
    assert.equal(env.get("APP"), "etcd");
    assert.equal(env.get("PW"), "s3cret");
    assert.equal(env.has("OPT"), false);
    assert.equal(env.get("MEM"), "1024");
  });

  it("adds the service links under envFrom and env, and drops them with enableServiceLinks: false", async () => {
    const c = {
      name: "c",
      env: [
        { name: "URL", value: "https://$(ETCD_CLIENT_SERVICE_HOST):2379" },
        { name: "ETCD_CLIENT_SERVICE_PORT", value: "mine" },
      ],
    };
    const env = await containerEnv(c, ctx());
    assert.equal(env.get("ETCD_CLIENT_SERVICE_HOST"), "127.64.0.9");
    assert.equal(env.get("URL"), "https://127.64.0.9:2379");
    assert.equal(env.get("ETCD_CLIENT_SERVICE_PORT"), "mine", "explicit env wins");
    const off = { ...ctx(), pod: { ...pod, spec: { ...pod.spec, enableServiceLinks: false } } };
    const without = await containerEnv(c, off);
    assert.equal(without.has("ETCD_CLIENT_SERVICE_HOST"), false);
    assert.equal(without.get("URL"), "https://$(ETCD_CLIENT_SERVICE_HOST):2379");
  });

  it("fails with kube's wording on a missing Secret, ConfigMap or key", async () => {
    await assert.rejects(
      containerEnv({ name: "c", envFrom: [{ secretRef: { name: "nope" } }] }, ctx()),
      (e: Error) => e instanceof ContainerConfigError && e.message === 'secret "nope" not found',
    );
    await assert.rejects(
      containerEnv(
        {
          name: "c",
          env: [{ name: "X", valueFrom: { configMapKeyRef: { name: "conf", key: "nope" } } }],
        },
        ctx(),
      ),
      /couldn't find key nope in ConfigMap db\/conf/,
    );
    await assert.rejects(
      containerEnv(
        {
          name: "c",
          env: [{ name: "X", valueFrom: { fieldRef: { fieldPath: "spec.hostNetwork" } } }],
        },
        ctx(),
      ),
      /unsupported fieldPath: spec.hostNetwork/,
    );
  });
});

describe("containerArgv", () => {
  const image = { entrypoint: ["/usr/bin/etcd"], cmd: ["--default"] };
  const env = new Map([["POD_IP", "127.1.0.7"]]);
  it("follows kube's command/args rules over the image's ENTRYPOINT and CMD", () => {
    assert.deepEqual(containerArgv({ name: "c" }, image, env), ["/usr/bin/etcd", "--default"]);
    assert.deepEqual(containerArgv({ name: "c", args: ["--listen=$(POD_IP)"] }, image, env), [
      "/usr/bin/etcd",
      "--listen=127.1.0.7",
    ]);
    assert.deepEqual(containerArgv({ name: "c", command: ["sh", "-c"] }, image, env), ["sh", "-c"]);
    assert.deepEqual(
      containerArgv(
        { name: "c", command: ["echo"], args: ["$$(POD_IP)", "$(POD_IP)"] },
        image,
        env,
      ),
      ["echo", "$(POD_IP)", "127.1.0.7"],
    );
  });
});

describe("downward API values", () => {
  it("formats maps and resource values as kube does", () => {
    assert.equal(formatMap({ b: "2", a: 'x"y' }), 'a="x\\"y"\nb="2"');
    assert.equal(
      resourceFieldValue(pod, { resource: "limits.cpu" }, pod.spec.containers[0], {
        cpu: "4",
        memory: "8Gi",
      }),
      "4",
    );
    assert.equal(
      resourceFieldValue(pod, { resource: "requests.cpu", divisor: "1m" }, pod.spec.containers[0], {
        cpu: "4",
        memory: "8Gi",
      }),
      "0",
    );
  });
});
