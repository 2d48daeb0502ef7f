/**
 * Pods at the API door, against an in-process apiserver: Pod Security admission
 * (a namespace labelled baseline refuses privileged, host-namespace and hostPath
 * pods with kube's 403 and writes nothing; restricted refuses what baseline
 * allows; warn labels give Warning headers, for pods and Job templates; bad
 * labels are refused; relabelling warns about the pods already there), the
 * securityContext stored as sent, Pod validation (requests above limits,
 * volume item paths leaving the volume) refused with nothing written, and
 * Bindings: a target that is no node name is refused, and a pod bound to a
 * node that does not exist finishes deleting (pod GC), even one stored with an
 * impossible node name before Bindings were checked.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { NodeLifecycleController } from "../../src/controllers/index.js";
import { waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";
import { expectRefused, type Refusal, type StatusBody } from "../support/refusal.js";

const ENFORCE = "pod-security.kubernetes.io/enforce";
const WARN = "pod-security.kubernetes.io/warn";
const j = (o: unknown) => JSON.stringify(o);

function pod(name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  return j({ apiVersion: "v1", kind: "Pod", metadata: { name, ...metadata }, spec });
}

const plain = { containers: [{ name: "c", image: "busybox" }] };

/** A pod the restricted level allows. */
const restrictedOk = {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
  containers: [
    {
      name: "c",
      image: "busybox",
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
    },
  ],
};

/** Every Warning header value, unquoted. */
function warnings(headers: Headers): string[] {
  const raw = headers.get("warning");
  if (!raw) return [];
  return [...raw.matchAll(/299 - ("(?:[^"\\]|\\.)*")/g)].map((m) => JSON.parse(m[1]!) as string);
}

describe("pods at the door", () => {
  let s: InProcessServer;

  before(async () => {
    s = await startInProcess();
    for (const [name, labels] of [
      ["base", { [ENFORCE]: "baseline" }],
      ["strict", { [ENFORCE]: "restricted" }],
      ["warned", { [WARN]: "restricted" }],
    ] as const) {
      const r = await s.request(
        "POST",
        "/api/v1/namespaces",
        j({ apiVersion: "v1", kind: "Namespace", metadata: { name, labels } }),
      );
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await s?.stop();
  });

  /** Sends a bad request; checks the Status, that the server is up, and that nothing was written. */
  function refused(
    method: string,
    path: string,
    body: string,
    expect: Refusal,
    headers: Record<string, string> = {},
  ): Promise<StatusBody> {
    return expectRefused(
      s,
      `${method} ${path}`,
      () => s.request(method, path, body, headers),
      expect,
    );
  }

  describe("Pod Security admission", () => {
    it("refuses a privileged pod in a baseline namespace with kube's message", async () => {
      await refused(
        "POST",
        "/api/v1/namespaces/base/pods",
        pod("priv", {
          containers: [{ name: "c", image: "busybox", securityContext: { privileged: true } }],
        }),
        {
          code: 403,
          reason: "Forbidden",
          message:
            'pods "priv" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
        },
      );
    });

    it("refuses host namespaces, hostPath, host ports and extra capabilities, naming each", async () => {
      const status = await refused(
        "POST",
        "/api/v1/namespaces/base/pods",
        pod("host", {
          hostNetwork: true,
          hostPID: true,
          containers: [
            {
              name: "c",
              image: "busybox",
              ports: [{ containerPort: 80, hostPort: 80 }],
              securityContext: { capabilities: { add: ["SYS_ADMIN", "CHOWN"] } },
              volumeMounts: [{ name: "root", mountPath: "/host" }],
            },
          ],
          volumes: [{ name: "root", hostPath: { path: "/" } }],
        }),
        { code: 403, reason: "Forbidden" },
      );
      assert.equal(
        status.message,
        'pods "host" is forbidden: violates PodSecurity "baseline:latest": non-default capabilities (container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add), host namespaces (hostNetwork=true, hostPID=true), hostPath volumes (volume "root"), hostPort (container "c" uses hostPort 80)',
      );
    });

    it("refuses a pod in a restricted namespace that baseline allows", async () => {
      await refused("POST", "/api/v1/namespaces/strict/pods", pod("plain", plain), {
        code: 403,
        reason: "Forbidden",
        message:
          'pods "plain" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
      });
    });

    it("refuses an update that changes an image of a violating pod, not one that does not", async () => {
      // Stored before the namespace was labelled.
      let r = await s.request(
        "POST",
        "/api/v1/namespaces",
        j({ apiVersion: "v1", kind: "Namespace", metadata: { name: "later" } }),
      );
      assert.equal(r.status, 201, r.text);
      const priv = {
        containers: [{ name: "c", image: "busybox", securityContext: { privileged: true } }],
      };
      r = await s.request("POST", "/api/v1/namespaces/later/pods", pod("p", priv));
      assert.equal(r.status, 201, r.text);
      r = await s.request(
        "PATCH",
        "/api/v1/namespaces/later",
        j({ metadata: { labels: { [ENFORCE]: "baseline" } } }),
        { "Content-Type": "application/merge-patch+json" },
      );
      assert.equal(r.status, 200, r.text);
      const merge = { "Content-Type": "application/merge-patch+json" };
      r = await s.request(
        "PATCH",
        "/api/v1/namespaces/later/pods/p",
        j({ metadata: { labels: { a: "b" } } }),
        merge,
      );
      assert.equal(r.status, 200, `a label change is no significant update: ${r.text}`);
      await refused(
        "PATCH",
        "/api/v1/namespaces/later/pods/p",
        j({ spec: { containers: [{ name: "c", image: "busybox:2" }] } }),
        { code: 403, reason: "Forbidden", message: /violates PodSecurity "baseline:latest"/ },
        { "Content-Type": "application/strategic-merge-patch+json" },
      );
    });

    it("admits a compliant pod in a restricted namespace and stores its securityContext", async () => {
      const r = await s.request("POST", "/api/v1/namespaces/strict/pods", pod("ok", restrictedOk));
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(warnings(r.headers), []);
      const got = await s.request("GET", "/api/v1/namespaces/strict/pods/ok");
      const spec = (got.body as { spec: typeof restrictedOk }).spec;
      assert.deepEqual(spec.securityContext, restrictedOk.securityContext);
      assert.deepEqual(
        spec.containers[0]!.securityContext,
        restrictedOk.containers[0]!.securityContext,
      );
    });

    it("warns, and admits, in a namespace labelled warn=restricted", async () => {
      const r = await s.request("POST", "/api/v1/namespaces/warned/pods", pod("w", plain));
      assert.equal(r.status, 201, r.text);
      const [w, ...rest] = warnings(r.headers);
      assert.deepEqual(rest, []);
      assert.match(
        w ?? "",
        /^would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false/,
      );
    });

    it("warns about a Job's pod template but never refuses it", async () => {
      const r = await s.request(
        "POST",
        "/apis/batch/v1/namespaces/base/jobs",
        j({
          apiVersion: "batch/v1",
          kind: "Job",
          metadata: { name: "j" },
          spec: {
            template: {
              spec: {
                restartPolicy: "Never",
                containers: [
                  { name: "c", image: "busybox", securityContext: { privileged: true } },
                ],
              },
            },
          },
        }),
      );
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(warnings(r.headers), [
        'would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)',
      ]);
    });

    it("refuses a namespace with bad Pod Security labels, on create and on update", async () => {
      const status = await refused(
        "POST",
        "/api/v1/namespaces",
        j({
          apiVersion: "v1",
          kind: "Namespace",
          metadata: { name: "bad", labels: { [ENFORCE]: "bogus", [`${WARN}-version`]: "1.30" } },
        }),
        { code: 422, reason: "Invalid" },
      );
      assert.deepEqual(
        status.details?.causes?.map((c) => c.field),
        [`metadata.labels[${ENFORCE}]`, `metadata.labels[${WARN}-version]`],
      );
      assert.match(
        status.message,
        /Invalid value: "bogus": must be one of privileged, baseline, restricted/,
      );
      await refused(
        "PATCH",
        "/api/v1/namespaces/base",
        j({ metadata: { labels: { [ENFORCE]: "Baseline" } } }),
        { code: 422, reason: "Invalid" },
        { "Content-Type": "application/merge-patch+json" },
      );
    });

    it("warns, when a namespace gets stricter, about the pods that would now be refused", async () => {
      let r = await s.request(
        "POST",
        "/api/v1/namespaces",
        j({ apiVersion: "v1", kind: "Namespace", metadata: { name: "relabel" } }),
      );
      assert.equal(r.status, 201, r.text);
      for (const name of ["b", "a"]) {
        r = await s.request("POST", "/api/v1/namespaces/relabel/pods", pod(name, plain));
        assert.equal(r.status, 201, r.text);
      }
      r = await s.request(
        "PATCH",
        "/api/v1/namespaces/relabel",
        j({ metadata: { labels: { [ENFORCE]: "restricted" } } }),
        { "Content-Type": "application/merge-patch+json" },
      );
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(warnings(r.headers), [
        'existing pods in namespace "relabel" violate the new PodSecurity enforce level "restricted:latest"',
        "a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile",
      ]);
    });
  });

  describe("Pod validation", () => {
    it("refuses requests above limits with kube's field and wording", async () => {
      const status = await refused(
        "POST",
        "/api/v1/namespaces/default/pods",
        pod("res", {
          containers: [
            {
              name: "c",
              image: "busybox",
              resources: { requests: { cpu: "2" }, limits: { cpu: "1" } },
            },
          ],
        }),
        {
          code: 422,
          reason: "Invalid",
          message:
            'Pod "res" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
        },
      );
      assert.equal(status.details?.causes?.[0]?.field, "spec.containers[0].resources.requests");
    });

    it("refuses volume item paths that leave the volume", async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [
          { configMap: { name: "cm", items: [{ key: "k", path: "../x" }] } },
          "spec.volumes[0].configMap.items[0].path",
          "must not contain '..'",
        ],
        [
          { secret: { secretName: "s", items: [{ key: "k", path: "/etc/passwd" }] } },
          "spec.volumes[0].secret.items[0].path",
          "must be a relative path",
        ],
        [
          {
            downwardAPI: { items: [{ path: "..data", fieldRef: { fieldPath: "metadata.name" } }] },
          },
          "spec.volumes[0].downwardAPI.items[0].path",
          "must not start with '..'",
        ],
        [
          { configMap: { name: "cm", items: [{ key: "k", path: "a".repeat(4097) }] } },
          "spec.volumes[0].configMap.items[0].path",
          "Too long: may not be more than 4096 bytes",
        ],
      ];
      for (const [source, field, why] of cases) {
        const status = await refused(
          "POST",
          "/api/v1/namespaces/default/pods",
          pod("vol", { ...plain, volumes: [{ name: "v", ...source }] }),
          { code: 422, reason: "Invalid" },
        );
        assert.equal(status.details?.causes?.[0]?.field, field);
        assert.ok(status.message.includes(why), status.message);
      }
    });

    it("refuses wrongly typed security fields and out-of-range ids", async () => {
      await refused(
        "POST",
        "/api/v1/namespaces/default/pods",
        pod("t", {
          containers: [{ name: "c", image: "busybox", securityContext: { privileged: "yes" } }],
        }),
        { code: 400, reason: "BadRequest" },
      );
      await refused(
        "POST",
        "/api/v1/namespaces/default/pods",
        pod("t", { ...plain, securityContext: { runAsUser: -1 } }),
        {
          code: 422,
          reason: "Invalid",
          message:
            'Pod "t" is invalid: spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
        },
      );
    });
  });

  describe("Bindings", () => {
    let client: HttpClient;
    let stop: AbortController;
    let done: Promise<void>;

    before(() => {
      client = createHttpClient({ server: s.url });
      stop = new AbortController();
      done = new NodeLifecycleController(client, { gracePeriodMs: 300 }).run(stop.signal);
    });
    after(async () => {
      stop.abort();
      await done;
      client.close();
    });

    const binding = (pod: string, node: string) =>
      j({
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name: pod },
        target: { kind: "Node", name: node },
      });

    it("refuses a target that is no node name, and writes nothing", async () => {
      const r = await s.request("POST", "/api/v1/namespaces/default/pods", pod("unbound", plain));
      assert.equal(r.status, 201, r.text);
      for (const node of ["..", "a/b", "Node_1", "%"]) {
        const status = await refused(
          "POST",
          "/api/v1/namespaces/default/pods/unbound/binding",
          binding("unbound", node),
          { code: 422, reason: "Invalid" },
        );
        assert.equal(status.details?.causes?.[0]?.field, "target.name");
      }
      await refused(
        "POST",
        "/api/v1/namespaces/default/pods/unbound/binding",
        j({
          apiVersion: "v1",
          kind: "Binding",
          metadata: { name: "unbound" },
          target: { kind: "Pod", name: "n" },
        }),
        { code: 422, reason: "Invalid", message: /target.kind: Unsupported value: "Pod"/ },
      );
      // Typed as kube's decoder types it: annotations a string map.
      await refused(
        "POST",
        "/api/v1/namespaces/default/pods/unbound/binding",
        j({
          apiVersion: "v1",
          kind: "Binding",
          metadata: { name: "unbound", annotations: "xy" },
          target: { kind: "Node", name: "n1" },
        }),
        {
          code: 400,
          reason: "BadRequest",
          message: /cannot be handled as a Binding: metadata.annotations/,
        },
      );
    });

    it("finishes deleting a pod bound to a node that does not exist", async () => {
      let r = await s.request("POST", "/api/v1/namespaces/default/pods", pod("five", plain));
      assert.equal(r.status, 201, r.text);
      r = await s.request(
        "POST",
        "/api/v1/namespaces/default/pods/five/binding",
        binding("five", "5"),
      );
      assert.equal(r.status, 201, r.text);
      r = await s.request(
        "POST",
        "/api/v1/namespaces/default/pods/five/binding",
        binding("five", "6"),
      );
      assert.equal(r.status, 409, "already bound");
      r = await s.request("DELETE", "/api/v1/namespaces/default/pods/five");
      assert.equal(r.status, 200, r.text);
      await waitFor("the pod to be gone", async () => {
        const got = await s.request("GET", "/api/v1/namespaces/default/pods/five");
        return got.status === 404 ? true : undefined;
      });
    });

    it("deletes a pod stored with an impossible node name before Bindings were checked", async () => {
      let r = await s.request("POST", "/api/v1/namespaces/default/pods", pod("legacy", plain));
      assert.equal(r.status, 201, r.text);
      // What a Binding to ".." wrote before: a nodeName the pod's own validation refuses.
      const key = "/registry/core/pods/default/legacy";
      const kv = (await s.backend.get(key))!;
      const stored = JSON.parse(kv.value) as { spec: { nodeName?: string } };
      stored.spec.nodeName = "..";
      await s.backend.update(key, JSON.stringify(stored), kv.modRevision);
      r = await s.request("DELETE", "/api/v1/namespaces/default/pods/legacy");
      assert.equal(r.status, 200, r.text);
      await waitFor("the pod to be gone", async () => {
        const got = await s.request("GET", "/api/v1/namespaces/default/pods/legacy");
        return got.status === 404 ? true : undefined;
      });
    });
  });
});
