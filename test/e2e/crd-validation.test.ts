/**
 * The real kubectl against a real `hearth up`, on a CRD with a structural
 * schema (types, enum, minimum, required, defaults), CEL rules (an immutable
 * `spec.image`, a messageExpression) and a scale subresource: bad objects are
 * refused with field paths, defaults are filled in, a CRD whose rule does not
 * compile is refused, `kubectl scale` works, and `kubectl get events` shows
 * Events written by the client's EventRecorder and by `kubectl create` through
 * events.k8s.io/v1.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { KubeObject } from "../../src/api/types.js";
import { clientFromKubeconfig, EventRecorder, type HttpClient } from "../../src/client/index.js";
import { type Hearth, REPO_ROOT, startHearth, waitFor } from "../support/hearth-process.js";

const CRD = join(REPO_ROOT, "test/fixtures/widget-crd.yaml");

function widget(name: string, spec: string): string {
  return `apiVersion: rules.example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
}

describe("CRD validation with kubectl", () => {
  let h: Hearth;
  let client: HttpClient | undefined;

  before(async () => {
    h = await startHearth();
    await h.kubectlOk(["apply", "-f", CRD]);
    await h.kubectlOk([
      "wait",
      "--for=condition=Established",
      "crd/widgets.rules.example.com",
      "--timeout=20s",
    ]);
  });
  after(async () => {
    client?.close();
    await h?.cleanup();
  });

  it("refuses a bad object with the field paths at fault", async () => {
    const r = await h.kubectl(["apply", "-f", "-"], {
      input: widget("bad", "  image: 5\n  replicas: -1\n  mode: Slow\n"),
    });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /The Widget "bad" is invalid/);
    assert.match(
      r.stderr,
      /spec\.image: Invalid value: "integer": spec\.image in body must be of type string/,
    );
    assert.match(
      r.stderr,
      /spec\.replicas: Invalid value: -1: spec\.replicas in body should be greater than or equal to 0/,
    );
    assert.match(
      r.stderr,
      /spec\.mode: Unsupported value: "Slow": supported values: "Fast", "Safe"/,
    );
    const missing = await h.kubectl(["apply", "-f", "-"], {
      input: widget("bad", "  replicas: 1\n"),
    });
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /spec\.image: Required value/);
  });

  it("fills in defaults", async () => {
    await h.kubectlOk(["apply", "-f", "-"], { input: widget("w1", "  image: nginx:1\n") });
    const get = (path: string) => h.kubectlOk(["get", "widget", "w1", "-o", `jsonpath={${path}}`]);
    assert.equal(await get(".spec.replicas"), "1");
    assert.equal(await get(".spec.mode"), "Safe");
  });

  it("runs CEL rules: an immutable image and a messageExpression", async () => {
    const changed = await h.kubectl(["apply", "-f", "-"], {
      input: widget("w1", "  image: nginx:2\n"),
    });
    assert.notEqual(changed.code, 0);
    assert.match(
      changed.stderr,
      /The Widget "w1" is invalid: spec\.image: Invalid value: "string": Value is immutable/,
    );
    const patched = await h.kubectl([
      "patch",
      "widget",
      "w1",
      "--type=merge",
      "-p",
      '{"spec":{"replicas":12}}',
    ]);
    assert.notEqual(patched.code, 0);
    assert.match(patched.stderr, /spec: Invalid value: "object": replicas 12 needs mode Fast/);
    await h.kubectlOk([
      "patch",
      "widget",
      "w1",
      "--type=merge",
      "-p",
      '{"spec":{"replicas":12,"mode":"Fast"}}',
    ]);
  });

  it("refuses a CRD whose rule does not compile", async () => {
    const crd = readFileSync(CRD, "utf8")
      .replaceAll("widgets", "gizmos")
      .replaceAll("widget", "gizmo")
      .replace("kind: Widget", "kind: Gizmo")
      .replace("shortNames: [wd]", "shortNames: [gz]")
      .replace("rule: self == oldSelf", "rule: self == oldSelf.image.size()");
    const r = await h.kubectl(["apply", "-f", "-"], { input: crd });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /The CustomResourceDefinition "gizmos\.rules\.example\.com" is invalid: spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[image\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self == oldSelf\.image\.size\(\)".*compilation failed: ERROR: <input>:1:\d+: type 'string' does not support field selection/,
    );
    const get = await h.kubectl(["get", "crd", "gizmos.rules.example.com"]);
    assert.notEqual(get.code, 0, "nothing was stored");
    assert.match(
      get.stderr,
      /\(NotFound\): customresourcedefinitions\.apiextensions\.k8s\.io "gizmos\.rules\.example\.com" not found/,
    );
  });

  it("scales with kubectl scale", async () => {
    await h.kubectlOk(["apply", "-f", "-"], { input: widget("w2", "  image: x\n  replicas: 2\n") });
    assert.match(
      await h.kubectlOk(["scale", "widget", "w2", "--replicas=5"]),
      /widget\.rules\.example\.com\/w2 scaled/,
    );
    assert.equal(
      await h.kubectlOk(["get", "widget", "w2", "-o", "jsonpath={.spec.replicas}"]),
      "5",
    );
    const scale = JSON.parse(
      await h.kubectlOk([
        "get",
        "--raw",
        "/apis/rules.example.com/v1/namespaces/default/widgets/w2/scale",
      ]),
    );
    assert.equal(scale.kind, "Scale");
    assert.equal(scale.spec.replicas, 5);
    const refused = await h.kubectl(["scale", "widget", "w2", "--replicas=20"]);
    assert.notEqual(refused.code, 0, "the kind's rules apply to scale");
  });

  it("shows recorded and events.k8s.io/v1 Events in kubectl get events", async () => {
    client = await clientFromKubeconfig(h.kubeconfig);
    const w2 = await client.get<KubeObject>({
      apiVersion: "rules.example.com/v1",
      kind: "Widget",
      name: "w2",
      namespace: "default",
    });
    const recorder = new EventRecorder(client, { component: "widget-controller" });
    recorder.event(w2, "Normal", "Scaled", "scaled to 5 replicas");
    recorder.event(w2, "Normal", "Scaled", "scaled to 5 replicas");
    await recorder.flush();
    const event = `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: w1.manual
eventTime: "2024-05-01T10:00:00.000000Z"
reportingController: example.com/ops
reportingInstance: ops-1
action: Inspect
reason: Inspected
type: Warning
note: looked at by hand
regarding:
  apiVersion: rules.example.com/v1
  kind: Widget
  name: w1
  namespace: default
`;
    await h.kubectlOk(["create", "-f", "-"], { input: event });
    const table = await waitFor("both events listed", async () => {
      const out = await h.kubectlOk(["get", "events"]);
      return out.includes("looked at by hand") && out.includes("scaled to 5") ? out : undefined;
    });
    assert.match(table, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/m);
    assert.match(table, /^\S+\s+Normal\s+Scaled\s+widget\/w2\s+scaled to 5 replicas$/m);
    assert.match(table, /^\S+\s+Warning\s+Inspected\s+widget\/w1\s+looked at by hand$/m);
    const counted = JSON.parse(
      await h.kubectlOk([
        "get",
        "events",
        "--field-selector",
        "involvedObject.name=w2",
        "-o",
        "json",
      ]),
    );
    assert.equal(counted.items[0].count, 2);
    const modern = await h.kubectlOk([
      "get",
      "events.v1.events.k8s.io",
      "w1.manual",
      "-o",
      "jsonpath={.note}",
    ]);
    assert.equal(modern, "looked at by hand");
  });
});
