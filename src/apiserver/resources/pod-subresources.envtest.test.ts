/**
 * The request-level behaviour of the pod and namespace subresources through
 * the in-process apiserver: `pods/log` proxied to a stand-in node agent (the
 * options forwarded, the token sent, kube's errors for a wrong container, a
 * bad option, a node without an address, an agent that is down),
 * `pods/binding` refusals, and `namespaces/finalize`.
 */
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Env } from "../../../test/support/envtest.js";
import { type RawApi, startRawEnv } from "../../../test/support/raw-http.js";
import { type KubeObject, NODE_LOG_TOKEN_ANNOTATION, type Status } from "../../api/index.js";

const NS = "subres";
const PODS = `/api/v1/namespaces/${NS}/pods`;
let env: Env;
let api: RawApi;
let agent: Server;
let agentPort = 0;
/** What the stand-in node agent was asked: path and authorization header. */
const asked: { path: string; auth: string }[] = [];

before(async () => {
  ({ env, api } = await startRawEnv(NS));
  agent = createServer((req, res) => {
    asked.push({ path: req.url ?? "", auth: req.headers.authorization ?? "" });
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("line 1\nline 2\n");
  });
  await new Promise<void>((resolve) => agent.listen(0, "127.0.0.1", resolve));
  agentPort = (agent.address() as AddressInfo).port;
  const node = async (name: string, addresses: object[], port?: number) => {
    await api.ok("POST", "/api/v1/nodes", {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name, annotations: { [NODE_LOG_TOKEN_ANNOTATION]: `tok-${name}` } },
    });
    // A create drops status, as kube's does: node agents write it through /status.
    await api.ok("PATCH", `/api/v1/nodes/${name}/status`, {
      status: {
        addresses,
        ...(port ? { daemonEndpoints: { kubeletEndpoint: { Port: port } } } : {}),
      },
    });
  };
  await node("agent-up", [{ type: "InternalIP", address: "127.0.0.1" }], agentPort);
  await node("no-address", [{ type: "Hostname", address: "h1" }]);
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const deadPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await node("agent-down", [{ type: "InternalIP", address: "127.0.0.1" }], deadPort);
  const pod = (name: string, nodeName: string | undefined, containers: string[]) =>
    api.ok("POST", PODS, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name },
      spec: {
        ...(nodeName ? { nodeName } : {}),
        containers: containers.map((c) => ({ name: c, image: "busybox" })),
        initContainers: [{ name: "setup", image: "busybox" }],
      },
    });
  await pod("one", "agent-up", ["main"]);
  await pod("two", "agent-up", ["a", "b"]);
  await pod("unplaced", undefined, ["main"]);
  await pod("lost", "gone-node", ["main"]);
  await pod("hostless", "no-address", ["main"]);
  await pod("down", "agent-down", ["main"]);
});
after(async () => {
  await new Promise<void>((resolve) => agent.close(() => resolve()));
  await env.stop();
});

describe("pods/log", () => {
  it("proxies to the node agent with its token, forwarding only the options kube knows", async () => {
    asked.length = 0;
    const reply = await api.call(
      "GET",
      `${PODS}/one/log?tailLines=5&limitBytes=100&sinceSeconds=60&follow=true&previous=1&timestamps=false&timeout=30s&pretty=true`,
    );
    assert.equal(reply.status, 200);
    assert.equal(reply.text, "line 1\nline 2\n");
    assert.deepEqual(asked, [
      {
        path: `/containerLogs/${NS}/one/main?tailLines=5&limitBytes=100&sinceSeconds=60&follow=true&previous=true`,
        auth: "Bearer tok-agent-up",
      },
    ]);
  });

  it("reads the named container, an init container too", async () => {
    asked.length = 0;
    assert.equal((await api.call("GET", `${PODS}/two/log?container=b`)).status, 200);
    assert.equal((await api.call("GET", `${PODS}/two/log?container=setup`)).status, 200);
    assert.deepEqual(
      asked.map((a) => a.path),
      [`/containerLogs/${NS}/two/b?`, `/containerLogs/${NS}/two/setup?`],
    );
  });

  it("answers an empty 200 for a pod on no node yet, without asking any agent", async () => {
    asked.length = 0;
    const reply = await api.call("GET", `${PODS}/unplaced/log`);
    assert.equal(reply.status, 200);
    assert.equal(reply.text, "");
    assert.deepEqual(asked, []);
  });

  const refusals: [
    why: string,
    path: string,
    code: number,
    reason: string,
    message: string | RegExp,
  ][] = [
    [
      "no container named in a pod of two",
      `${PODS}/two/log`,
      400,
      "BadRequest",
      "a container name must be specified for pod two, choose one of: [a b setup]",
    ],
    [
      "a container the pod has not",
      `${PODS}/one/log?container=nope`,
      400,
      "BadRequest",
      "container nope is not valid for pod one",
    ],
    [
      "a negative tailLines",
      `${PODS}/one/log?tailLines=-1`,
      422,
      "Invalid",
      'PodLogOptions "" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    ],
    [
      "a zero limitBytes",
      `${PODS}/one/log?limitBytes=0`,
      422,
      "Invalid",
      'PodLogOptions "" is invalid: limitBytes: Invalid value: 0: must be greater than 0',
    ],
    [
      "a sinceSeconds that is not a number",
      `${PODS}/one/log?sinceSeconds=soon`,
      400,
      "BadRequest",
      /soon/,
    ],
    ["a pod that does not exist", `${PODS}/ghost/log`, 404, "NotFound", 'pods "ghost" not found'],
    [
      "a pod on a node that does not exist",
      `${PODS}/lost/log`,
      404,
      "NotFound",
      'nodes "gone-node" not found',
    ],
    [
      "a node with no address to reach",
      `${PODS}/hostless/log`,
      500,
      "Unknown",
      "no preferred addresses found; known addresses: [{Hostname h1}]",
    ],
    [
      "a node agent that is down",
      `${PODS}/down/log`,
      500,
      "InternalError",
      /^Get "http:\/\/127\.0\.0\.1:\d+\/containerLogs\/subres\/down\/main\?": /,
    ],
  ];
  for (const [why, path, code, reason, message] of refusals)
    it(`refuses ${why} with a ${code}`, async () => {
      const reply = await api.call("GET", path);
      assert.equal(reply.status, code, reply.text);
      const s = reply.body as Status;
      assert.equal(s.reason, reason);
      if (typeof message === "string") assert.equal(s.message, message);
      else assert.match(s.message ?? "", message);
    });

  it("serves GET only", async () => {
    const reply = await api.call("POST", `${PODS}/one/log`, {});
    assert.equal(reply.status, 405);
  });
});

describe("pods/binding refusals", () => {
  const binding = (name: string, target: object, metadata: object = {}) => ({
    apiVersion: "v1",
    kind: "Binding",
    metadata: { name, ...metadata },
    target,
  });
  const refusals: [
    why: string,
    pod: string,
    body: unknown,
    code: number,
    message: string | RegExp,
  ][] = [
    [
      "a body that is not a v1 Binding",
      "unplaced",
      { apiVersion: "v1", kind: "Pod" },
      400,
      "expected v1 Binding in the request body",
    ],
    [
      "a Binding of another name",
      "unplaced",
      binding("other", { kind: "Node", name: "agent-up" }),
      400,
      "name in URL does not match name in Binding object",
    ],
    [
      "a target that is not a Node",
      "unplaced",
      binding("unplaced", { kind: "Pod", name: "agent-up" }),
      422,
      /target\.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"/,
    ],
    [
      "a target without a name",
      "unplaced",
      binding("unplaced", { kind: "Node" }),
      422,
      /target\.name: Required value/,
    ],
    [
      "a target name no Node can have",
      "unplaced",
      binding("unplaced", { name: "Not_A_Node" }),
      422,
      /target\.name: Invalid value: "Not_A_Node"/,
    ],
    [
      "a mistyped annotation",
      "unplaced",
      binding("unplaced", { name: "agent-up" }, { annotations: { a: 1 } }),
      400,
      /^Binding in version "v1" cannot be handled as a Binding: /,
    ],
    [
      "a UID precondition of another pod",
      "unplaced",
      binding("unplaced", { name: "agent-up" }, { uid: "not-the-uid" }),
      409,
      /Precondition failed: UID in precondition: not-the-uid/,
    ],
    [
      "a pod already on a node",
      "one",
      binding("one", { name: "agent-down" }),
      409,
      'Operation cannot be fulfilled on pods/binding "one": pod one is already assigned to node "agent-up"',
    ],
  ];
  for (const [why, pod, body, code, message] of refusals)
    it(`refuses ${why} with a ${code} and leaves the pod unbound`, async () => {
      const reply = await api.call("POST", `${PODS}/${pod}/binding`, body);
      assert.equal(reply.status, code, reply.text);
      const s = reply.body as Status;
      if (typeof message === "string") assert.equal(s.message, message);
      else assert.match(s.message ?? "", message);
      const stored = await api.ok<KubeObject>("GET", `${PODS}/${pod}`);
      assert.equal(
        (stored.spec as { nodeName?: string }).nodeName,
        pod === "one" ? "agent-up" : undefined,
      );
    });

  it("binds with an empty target kind, copying the Binding's annotations", async () => {
    const reply = await api.call(
      "POST",
      `${PODS}/unplaced/binding`,
      binding("unplaced", { name: "agent-up" }, { annotations: { "scheduler/why": "test" } }),
    );
    assert.equal(reply.status, 201, reply.text);
    const pod = await api.ok<KubeObject>("GET", `${PODS}/unplaced`);
    assert.equal((pod.spec as { nodeName?: string }).nodeName, "agent-up");
    assert.equal(pod.metadata.annotations?.["scheduler/why"], "test");
    const conditions = (pod.status as { conditions: { type: string; status: string }[] })
      .conditions;
    assert.deepEqual(
      conditions.filter((c) => c.type === "PodScheduled").map((c) => c.status),
      ["True"],
    );
  });

  it("serves create only", async () => {
    assert.equal((await api.call("GET", `${PODS}/one/binding`)).status, 405);
  });
});

describe("namespaces/finalize", () => {
  const FIN = "/api/v1/namespaces/fin-a";
  before(async () => {
    await api.ok("POST", "/api/v1/namespaces", {
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "fin-a" },
      spec: { finalizers: ["example.com/x"] },
    });
  });

  it("keeps spec.finalizers on a plain update, and changes them through finalize only", async () => {
    const ns = await api.ok<KubeObject>("GET", FIN);
    assert.deepEqual(ns.spec, { finalizers: ["example.com/x", "kubernetes"] });
    const put = await api.ok<KubeObject>("PUT", FIN, { ...ns, spec: { finalizers: [] } });
    assert.deepEqual(put.spec, ns.spec);
    const fin = await api.ok<KubeObject>("PUT", `${FIN}/finalize`, {
      ...put,
      spec: { finalizers: ["kubernetes"] },
    });
    assert.deepEqual(fin.spec, { finalizers: ["kubernetes"] });
  });

  it("refuses a stale resourceVersion with a 409 and a verb other than PUT with a 405", async () => {
    const ns = await api.ok<KubeObject>("GET", FIN);
    const stale = await api.call("PUT", `${FIN}/finalize`, {
      ...ns,
      metadata: { ...ns.metadata, resourceVersion: "1" },
      spec: { finalizers: [] },
    });
    assert.equal(stale.status, 409);
    assert.equal((await api.call("POST", `${FIN}/finalize`, ns)).status, 405);
    const after = await api.ok<KubeObject>("GET", FIN);
    assert.deepEqual(after.spec, { finalizers: ["kubernetes"] }, "nothing was written");
  });

  it("removes a deleted namespace once finalize empties spec.finalizers", async () => {
    await api.ok("DELETE", FIN);
    const marked = await api.ok<KubeObject>("GET", FIN);
    assert.equal((marked.status as { phase: string }).phase, "Terminating");
    const again = await api.call("DELETE", FIN);
    assert.equal(again.status, 409, "a repeated DELETE while content is removed is a Conflict");
    await api.ok("PUT", `${FIN}/finalize`, { ...marked, spec: { finalizers: [] } });
    assert.equal((await api.call("GET", FIN)).status, 404);
  });

  it("refuses to delete a protected namespace", async () => {
    const reply = await api.call("DELETE", "/api/v1/namespaces/kube-system");
    assert.notEqual(reply.status, 200);
    assert.match((reply.body as Status).message ?? "", /this namespace may not be deleted/);
  });
});
