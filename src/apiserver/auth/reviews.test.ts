/**
 * The access reviews, SelfSubjectReview, TokenRequest and ServiceAccount token
 * authentication on a real ApiServer (in process, RBAC on), over HTTP.
 */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { MemoryBackend } from "../../storage/index.js";
import { ApiServer } from "../server.js";

const ADMIN = "admin-token";

/** The value at `path` inside parsed JSON. */
function at(value: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);
}
const BOB = "bob-token";

describe("review kinds and ServiceAccount tokens (in process, RBAC on)", () => {
  const backend = new MemoryBackend();
  const controller = new AbortController();
  let url = "";

  async function call(
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as unknown };
  }

  const ssar = (
    token: string,
    resourceAttributes: Record<string, string>,
    headers?: Record<string, string>,
  ) =>
    call(
      token,
      "POST",
      "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
      {
        apiVersion: "authorization.k8s.io/v1",
        kind: "SelfSubjectAccessReview",
        spec: { resourceAttributes },
      },
      headers,
    );

  const whoami = (token: string, headers?: Record<string, string>) =>
    call(
      token,
      "POST",
      "/apis/authentication.k8s.io/v1/selfsubjectreviews",
      {
        apiVersion: "authentication.k8s.io/v1",
        kind: "SelfSubjectReview",
      },
      headers,
    );

  const tokenFor = (sa: string, spec: Record<string, unknown> = {}) =>
    call(ADMIN, "POST", `/api/v1/namespaces/default/serviceaccounts/${sa}/token`, {
      apiVersion: "authentication.k8s.io/v1",
      kind: "TokenRequest",
      spec,
    });

  before(async () => {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const server = new ApiServer({
      backend,
      port: 0,
      tokens: new Map([[ADMIN, "admin"]]),
      tokenUsers: new Map([[BOB, { username: "bob", uid: "u-bob", groups: ["dev"] }]]),
      serviceAccountSigning: {
        keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
      },
      rbac: true,
    });
    await server.start(controller.signal);
    url = `http://127.0.0.1:${server.port}`;
  });
  after(async () => {
    controller.abort();
    await backend.close();
  });

  it("answers SelfSubjectAccessReview for the caller", async () => {
    const admin = await ssar(ADMIN, { verb: "delete", resource: "namespaces" });
    assert.equal(admin.status, 201);
    assert.deepEqual(at(admin.body, "status"), { allowed: true });
    assert.equal(at(admin.body, "kind"), "SelfSubjectAccessReview");
    const bob = await ssar(BOB, { verb: "list", resource: "configmaps", namespace: "default" });
    assert.deepEqual(at(bob.body, "status"), { allowed: false });
  });

  it("refuses a review with both or neither kind of attributes, in kube's words", async () => {
    const r = await call(BOB, "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectAccessReview",
      spec: {},
    });
    assert.equal(r.status, 422);
    assert.equal(
      at(r.body, "message"),
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  });

  it("answers SubjectAccessReview and LocalSubjectAccessReview about another user", async () => {
    const sar = (spec: Record<string, unknown>) =>
      call(ADMIN, "POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", {
        apiVersion: "authorization.k8s.io/v1",
        kind: "SubjectAccessReview",
        spec,
      });
    const attrs = {
      resourceAttributes: { verb: "get", resource: "configmaps", namespace: "default" },
    };
    assert.equal(at((await sar({ ...attrs, user: "bob" })).body, "status", "allowed"), false);
    const rb = await call(
      ADMIN,
      "POST",
      "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
      {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "RoleBinding",
        metadata: { name: "bob-view" },
        roleRef: { kind: "ClusterRole", name: "view" },
        subjects: [{ kind: "User", name: "bob" }],
      },
    );
    assert.equal(rb.status, 201, JSON.stringify(rb.body));
    assert.equal(at(rb.body, "roleRef", "apiGroup"), "rbac.authorization.k8s.io");
    assert.deepEqual(at((await sar({ ...attrs, user: "bob" })).body, "status"), {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "bob-view/default" of ClusterRole "view" to User "bob"',
    });
    const none = await sar(attrs);
    assert.equal(none.status, 422);
    assert.match(
      String(at(none.body, "message")),
      /spec.user: Invalid value: "": at least one of user or group must be specified/,
    );

    const local = (namespace: string) =>
      call(
        ADMIN,
        "POST",
        "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
        {
          apiVersion: "authorization.k8s.io/v1",
          kind: "LocalSubjectAccessReview",
          spec: {
            user: "bob",
            resourceAttributes: { verb: "get", resource: "configmaps", namespace },
          },
        },
      );
    assert.equal(at((await local("default")).body, "status", "allowed"), true);
    const mismatch = await local("other");
    assert.equal(mismatch.status, 422);
    assert.match(
      String(at(mismatch.body, "message")),
      /spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace/,
    );
  });

  it("lists the caller's rules in SelfSubjectRulesReview", async () => {
    const r = await call(BOB, "POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", {
      apiVersion: "authorization.k8s.io/v1",
      kind: "SelfSubjectRulesReview",
      spec: { namespace: "default" },
    });
    assert.equal(r.status, 201);
    const resources = (at(r.body, "status", "resourceRules") as { resources: string[] }[]).flatMap(
      (x) => x.resources,
    );
    assert.ok(resources.includes("selfsubjectaccessreviews"));
    assert.ok(resources.includes("configmaps"), "view, bound in default");
    const urls = at(r.body, "status", "nonResourceRules") as { nonResourceURLs: string[] }[];
    assert.ok(urls.some((x) => x.nonResourceURLs.includes("/api")));
    assert.equal(at(r.body, "status", "incomplete"), false);
  });

  it("tells who the caller is, and who they impersonate", async () => {
    assert.deepEqual(at((await whoami(BOB)).body, "status", "userInfo"), {
      username: "bob",
      uid: "u-bob",
      groups: ["dev", "system:authenticated"],
    });
    const as = await whoami(ADMIN, { "Impersonate-User": "carol", "Impersonate-Group": "qa" });
    assert.deepEqual(at(as.body, "status", "userInfo"), {
      username: "carol",
      groups: ["qa", "system:authenticated"],
    });
    const refused = await whoami(BOB, { "Impersonate-User": "admin" });
    assert.equal(refused.status, 403);
    assert.equal(
      at(refused.body, "message"),
      'users "admin" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    assert.equal((await whoami("nobody")).status, 401);
  });

  it("issues ServiceAccount tokens that stop working when the ServiceAccount goes", async () => {
    const created = await call(ADMIN, "POST", "/api/v1/namespaces/default/serviceaccounts", {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "robot" },
    });
    assert.equal(created.status, 201);
    const tr = await tokenFor("robot");
    assert.equal(tr.status, 201, JSON.stringify(tr.body));
    assert.equal(at(tr.body, "spec", "expirationSeconds"), 3600);
    assert.deepEqual(at(tr.body, "spec", "audiences"), [
      "https://kubernetes.default.svc.cluster.local",
    ]);
    assert.match(
      String(at(tr.body, "status", "expirationTimestamp")),
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    const token = at(tr.body, "status", "token") as string;
    const me = at((await whoami(token)).body, "status", "userInfo") as Record<string, unknown>;
    assert.equal(me.username, "system:serviceaccount:default:robot");
    assert.equal(me.uid, at(created.body, "metadata", "uid"));
    assert.deepEqual(me.groups, [
      "system:serviceaccounts",
      "system:serviceaccounts:default",
      "system:authenticated",
    ]);

    assert.equal(
      (await call(ADMIN, "DELETE", "/api/v1/namespaces/default/serviceaccounts/robot")).status,
      200,
    );
    assert.equal((await whoami(token)).status, 401);
    await call(ADMIN, "POST", "/api/v1/namespaces/default/serviceaccounts", {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "robot" },
    });
    assert.equal(
      (await whoami(token)).status,
      401,
      "a new ServiceAccount of the same name has another uid",
    );
  });

  it("validates TokenRequests and binds tokens to Secrets", async () => {
    const short = await tokenFor("robot", { expirationSeconds: 60 });
    assert.equal(short.status, 422);
    assert.equal(
      at(short.body, "message"),
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
    assert.equal((await tokenFor("ghost")).status, 404);
    const foreign = await tokenFor("robot", { audiences: ["vault"] });
    assert.equal(
      (await whoami(String(at(foreign.body, "status", "token")))).status,
      401,
      "not addressed to this API",
    );

    await call(ADMIN, "POST", "/api/v1/namespaces/default/secrets", {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s" },
    });
    const bound = await tokenFor("robot", {
      boundObjectRef: { kind: "Secret", apiVersion: "v1", name: "s" },
    });
    assert.equal(bound.status, 201, JSON.stringify(bound.body));
    const token = at(bound.body, "status", "token") as string;
    const extra = at((await whoami(token)).body, "status", "userInfo", "extra") as Record<
      string,
      string[]
    >;
    assert.deepEqual(extra["authentication.kubernetes.io/secret-name"], ["s"]);
    await call(ADMIN, "DELETE", "/api/v1/namespaces/default/secrets/s");
    assert.equal((await whoami(token)).status, 401);
    const wrong = await tokenFor("robot", { boundObjectRef: { kind: "ConfigMap", name: "x" } });
    assert.equal(wrong.status, 400);
  });
});
