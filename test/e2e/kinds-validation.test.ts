/**
 * The validation kube-apiserver applies to ConfigMaps, Secrets, Namespaces and
 * Services, against the in-process server: each refused request gets kube's
 * Status (code, reason, message, causes' fields) and writes nothing (the
 * storage revision does not move); the accepted forms still work.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type InProcessServer, startInProcess } from "../support/in-process.js";
import { expectRefused, type Refusal, type StatusBody } from "../support/refusal.js";

const CM = "/api/v1/namespaces/default/configmaps";
const SECRETS = "/api/v1/namespaces/default/secrets";
const NS = "/api/v1/namespaces";
const SVC = "/api/v1/namespaces/default/services";
const KEY_RULE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const MERGE = { "Content-Type": "application/merge-patch+json" };
const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("kinds validation", () => {
  let s: InProcessServer;
  before(async () => {
    s = await startInProcess();
  });
  after(async () => {
    await s?.stop();
  });

  /** Sends a request that must be refused; checks the Status and that nothing was written. */
  function refused(
    method: string,
    path: string,
    body: unknown,
    expect: Refusal,
    headers: Record<string, string> = {},
  ): Promise<StatusBody> {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return expectRefused(
      s,
      `${method} ${path}`,
      () => s.request(method, path, text, headers),
      expect,
    );
  }

  async function ok(method: string, path: string, body: unknown, headers = {}): Promise<unknown> {
    const r = await s.request(method, path, JSON.stringify(body), headers);
    assert.ok(r.status === 200 || r.status === 201, r.text);
    return r.body;
  }

  const cm = (name: string, extra: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name },
    ...extra,
  });
  const secret = (name: string, extra: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name },
    ...extra,
  });

  it("refuses ConfigMap keys that are not config keys", async () => {
    const st = await refused("POST", CM, cm("k1", { data: { "bad key/": "v" } }), {
      code: 422,
      reason: "Invalid",
      fields: ["data[bad key/]"],
    });
    assert.equal(
      st.message,
      `ConfigMap "k1" is invalid: data[bad key/]: Invalid value: "bad key/": ${KEY_RULE}`,
    );
    await refused("POST", CM, cm("k2", { data: { "../../tmp/x": "v" } }), {
      code: 422,
      reason: "Invalid",
      message:
        /data\[\.\.\/\.\.\/tmp\/x\]: Invalid value: "\.\.\/\.\.\/tmp\/x": .*must not start with '\.\.'/,
      fields: ["data[../../tmp/x]", "data[../../tmp/x]"],
    });
    await refused("POST", CM, cm("k3", { data: { "..": "v" } }), {
      code: 422,
      reason: "Invalid",
      message: /data\[\.\.\]: Invalid value: "\.\.": must not be '\.\.'/,
    });
    await refused("POST", CM, cm("k4", { data: { ".": "v" } }), {
      code: 422,
      reason: "Invalid",
      message: /must not be '\.'/,
    });
    await refused("POST", CM, cm("k5", { data: { "..x": "v" } }), {
      code: 422,
      reason: "Invalid",
      message: /must not start with '\.\.'/,
    });
    await refused("POST", CM, cm("k6", { data: { "": "v" } }), {
      code: 422,
      reason: "Invalid",
      fields: ["data[]"],
    });
    await refused("POST", CM, cm("k7", { binaryData: { [`${"a".repeat(254)}`]: b64("v") } }), {
      code: 422,
      reason: "Invalid",
      message: /must be no more than 253 characters/,
    });
    await refused("POST", CM, cm("k8", { data: { a: "1" }, binaryData: { a: b64("2") } }), {
      code: 422,
      reason: "Invalid",
      message: /data\[a\]: Invalid value: "a": duplicate of key present in binaryData/,
    });
    await ok("POST", CM, cm("good-keys", { data: { "key.name": "1", KEY_NAME: "2", "-x_": "3" } }));
  });

  it("refuses a ConfigMap over 1 MiB and a Secret over 1 MiB", async () => {
    const big = "x".repeat(2 * 1024 * 1024);
    const st = await refused("POST", CM, cm("big", { data: { a: big } }), {
      code: 422,
      reason: "Invalid",
      fields: ["[]"],
    });
    assert.equal(
      st.message,
      'ConfigMap "big" is invalid: []: Too long: must have at most 1048576 bytes',
    );
    const half = "y".repeat(600 * 1024);
    await refused("POST", CM, cm("big2", { data: { a: half }, binaryData: { b: b64(half) } }), {
      code: 422,
      reason: "Invalid",
      fields: ["[]"],
    });
    const secretBytes = Buffer.alloc(1.1 * 1024 * 1024, 1).toString("base64");
    const ss = await refused("POST", SECRETS, secret("big", { data: { a: secretBytes } }), {
      code: 422,
      reason: "Invalid",
      fields: ["data"],
    });
    assert.equal(
      ss.message,
      'Secret "big" is invalid: data: Too long: must have at most 1048576 bytes',
    );
    await ok("POST", CM, cm("just-fits", { data: { a: "z".repeat(1024 * 1024) } }));
  });

  it("refuses bad Secret keys, in data and stringData", async () => {
    await refused("POST", SECRETS, secret("s1", { data: { "bad key/": b64("v") } }), {
      code: 422,
      reason: "Invalid",
      fields: ["data[bad key/]"],
    });
    await refused("POST", SECRETS, secret("s2", { stringData: { "../x": "v" } }), {
      code: 422,
      reason: "Invalid",
      fields: ["data[../x]", "data[../x]"],
    });
  });

  it("requires each Secret type's keys and annotation", async () => {
    await refused("POST", SECRETS, secret("tls", { type: "kubernetes.io/tls", data: {} }), {
      code: 422,
      reason: "Invalid",
      message: /data\[tls\.crt\]: Required value, data\[tls\.key\]: Required value/,
      fields: ["data[tls.crt]", "data[tls.key]"],
    });
    await refused("POST", SECRETS, secret("sat", { type: "kubernetes.io/service-account-token" }), {
      code: 422,
      reason: "Invalid",
      fields: ["metadata.annotations[kubernetes.io/service-account.name]"],
    });
    await refused(
      "POST",
      SECRETS,
      secret("dcj", {
        type: "kubernetes.io/dockerconfigjson",
        data: { ".dockerconfigjson": b64("{not json") },
      }),
      { code: 422, reason: "Invalid", fields: ["data[.dockerconfigjson]"] },
    );
    await refused("POST", SECRETS, secret("dc", { type: "kubernetes.io/dockercfg" }), {
      code: 422,
      reason: "Invalid",
      fields: ["data[.dockercfg]"],
    });
    await refused("POST", SECRETS, secret("ba", { type: "kubernetes.io/basic-auth" }), {
      code: 422,
      reason: "Invalid",
      fields: ["data[username]", "data[password]"],
    });
    await refused("POST", SECRETS, secret("ssh", { type: "kubernetes.io/ssh-auth" }), {
      code: 422,
      reason: "Invalid",
      fields: ["data[ssh-privatekey]"],
    });
    await ok(
      "POST",
      SECRETS,
      secret("tls-ok", {
        type: "kubernetes.io/tls",
        stringData: { "tls.crt": "c", "tls.key": "k" },
      }),
    );
    await ok(
      "POST",
      SECRETS,
      secret("ba-ok", { type: "kubernetes.io/basic-auth", stringData: { username: "" } }),
    );
    await ok(
      "POST",
      SECRETS,
      secret("dcj-ok", {
        type: "kubernetes.io/dockerconfigjson",
        stringData: { ".dockerconfigjson": '{"auths":{}}' },
      }),
    );
  });

  it("keeps a Secret's type, by update and by patch", async () => {
    await ok("POST", SECRETS, secret("typed", { stringData: { a: "1" } }));
    await refused(
      "PATCH",
      `${SECRETS}/typed`,
      { type: "kubernetes.io/basic-auth", stringData: { username: "u" } },
      {
        code: 422,
        reason: "Invalid",
        message: /type: Invalid value: "kubernetes.io\/basic-auth": field is immutable/,
        fields: ["type"],
      },
      MERGE,
    );
    await refused(
      "PUT",
      `${SECRETS}/typed`,
      secret("typed", {
        type: "kubernetes.io/tls",
        data: { "tls.crt": b64("c"), "tls.key": b64("k") },
      }),
      { code: 422, reason: "Invalid", fields: ["type"] },
    );
  });

  it("keeps immutable ConfigMaps and Secrets as they are", async () => {
    await ok("POST", CM, cm("frozen", { data: { a: "1" }, immutable: true }));
    await refused(
      "PATCH",
      `${CM}/frozen`,
      { data: { a: "2" } },
      {
        code: 422,
        reason: "Invalid",
        message: /data: Forbidden: field is immutable when `immutable` is set/,
        fields: ["data"],
      },
      MERGE,
    );
    await refused(
      "PATCH",
      `${CM}/frozen`,
      { immutable: false },
      {
        code: 422,
        reason: "Invalid",
        fields: ["immutable"],
      },
      MERGE,
    );
    await refused(
      "PATCH",
      `${CM}/frozen`,
      { binaryData: { b: b64("x") } },
      {
        code: 422,
        reason: "Invalid",
        fields: ["binaryData"],
      },
      MERGE,
    );
    await ok("PATCH", `${CM}/frozen`, { metadata: { labels: { a: "b" } } }, MERGE);
    await ok("POST", SECRETS, secret("frozen", { stringData: { a: "1" }, immutable: true }));
    await refused(
      "PATCH",
      `${SECRETS}/frozen`,
      { stringData: { a: "2" } },
      {
        code: 422,
        reason: "Invalid",
        fields: ["data"],
      },
      MERGE,
    );
    await refused(
      "PATCH",
      `${SECRETS}/frozen`,
      { immutable: null },
      {
        code: 422,
        reason: "Invalid",
        fields: ["immutable"],
      },
      MERGE,
    );
  });

  it("refuses namespace finalizer names nothing owns", async () => {
    const st = await refused(
      "POST",
      NS,
      {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name: "badfin" },
        spec: { finalizers: ["Bad Fin!"] },
      },
      { code: 422, reason: "Invalid", fields: ["spec.finalizers", "spec.finalizers"] },
    );
    assert.match(st.message, /name is neither a standard finalizer name nor is it fully qualified/);
    // As kube, a new namespace always carries `kubernetes`, so its content is always removed.
    const made = (await ok("POST", NS, {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "own-fin" },
      spec: { finalizers: ["example.com/hold"] },
    })) as { spec: { finalizers: string[] } };
    assert.deepEqual(made.spec.finalizers, ["example.com/hold", "kubernetes"]);
  });

  it("finalize takes only a checked Namespace of the same name, and plain updates keep spec.finalizers", async () => {
    await ok("POST", NS, { apiVersion: "v1", kind: "Namespace", metadata: { name: "fin" } });
    const fin = `${NS}/fin/finalize`;
    const body = (finalizers: unknown, name = "fin") => ({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name },
      spec: { finalizers },
    });
    await refused("PUT", fin, body("kubernetes"), { code: 400, reason: "BadRequest" });
    await refused("PUT", fin, body({ a: 1 }), { code: 400, reason: "BadRequest" });
    await refused("PUT", fin, body([], "other"), {
      code: 400,
      reason: "BadRequest",
      message: /does not match the name on the URL/,
    });
    await refused("PUT", fin, body(["Bad Fin!"]), {
      code: 422,
      reason: "Invalid",
      fields: ["spec.finalizers[0]", "spec.finalizers[0]"],
    });
    await refused(
      "PUT",
      fin,
      { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "fin" } },
      {
        code: 400,
        reason: "BadRequest",
      },
    );
    const held = (await ok("PUT", fin, body(["example.com/hold", "kubernetes"]))) as {
      spec: { finalizers: string[] };
    };
    assert.deepEqual(held.spec.finalizers, ["example.com/hold", "kubernetes"]);
    // A plain update or patch cannot change spec.finalizers (kube's strategy keeps them).
    const patched = (await ok(
      "PATCH",
      `${NS}/fin`,
      { spec: { finalizers: ["Bad Fin!"] } },
      MERGE,
    )) as {
      spec: { finalizers: string[] };
    };
    assert.deepEqual(patched.spec.finalizers, ["example.com/hold", "kubernetes"]);
    const done = (await ok("PUT", fin, body(["kubernetes"]))) as { spec: { finalizers: string[] } };
    assert.deepEqual(done.spec.finalizers, ["kubernetes"]);
  });

  it("refuses Service enum fields kube refuses", async () => {
    const svc = (name: string, spec: Record<string, unknown>) => ({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name },
      spec: { ports: [{ port: 80 }], ...spec },
    });
    const st = await refused("POST", SVC, svc("fam", { ipFamilies: ["IPv9"] }), {
      code: 422,
      reason: "Invalid",
      fields: ["spec.ipFamilies[0]"],
    });
    assert.match(
      st.message,
      /spec.ipFamilies\[0\]: Unsupported value: "IPv9": supported values: "IPv4", "IPv6"/,
    );
    await refused("POST", SVC, svc("pol", { ipFamilyPolicy: "Triple" }), {
      code: 422,
      reason: "Invalid",
      fields: ["spec.ipFamilyPolicy"],
    });
    await refused("POST", SVC, svc("typ", { type: "Bogus" }), {
      code: 422,
      reason: "Invalid",
      message:
        /spec.type: Unsupported value: "Bogus": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"/,
    });
    await refused("POST", SVC, svc("aff", { sessionAffinity: "Sticky" }), {
      code: 422,
      reason: "Invalid",
      fields: ["spec.sessionAffinity"],
    });
    await refused("POST", SVC, svc("etp", { externalTrafficPolicy: "Local" }), {
      code: 422,
      reason: "Invalid",
      message: /may only be set for externally-accessible services/,
    });
    await refused("POST", SVC, svc("itp", { internalTrafficPolicy: "Nowhere" }), {
      code: 422,
      reason: "Invalid",
      fields: ["spec.internalTrafficPolicy"],
    });
    await refused("POST", SVC, svc("proto", { ports: [{ port: 80, protocol: "ICMP" }] }), {
      code: 422,
      reason: "Invalid",
      fields: ["spec.ports[0].protocol"],
    });
    await refused(
      "POST",
      SVC,
      svc("cfg", {
        sessionAffinity: "ClientIP",
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } },
      }),
      {
        code: 422,
        reason: "Invalid",
        fields: ["spec.sessionAffinityConfig.clientIP.timeoutSeconds"],
      },
    );
    const made = (await ok("POST", SVC, svc("sticky", { sessionAffinity: "ClientIP" }))) as {
      spec: { sessionAffinityConfig: { clientIP: { timeoutSeconds: number } } };
    };
    assert.equal(made.spec.sessionAffinityConfig.clientIP.timeoutSeconds, 10800);
  });
});
