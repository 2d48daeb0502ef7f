/**
 * The platform as a list of components: a test-only component
 * (test/fixtures/gadget), registered through the same list as the platform's
 * own, gets everything a component declares — its CRD installed before its
 * bootstrap object, its controller run, its app kind served, rendered and
 * uninstalled by the engine in its two teardown waves (the second only once
 * the first one's wait holds; residue reported when a wait times out), and its
 * admission rule in the apiserver's chain — driven with real kubectl against
 * an in-process apiserver.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { checkedInDefinitions, platformAdmission } from "../../src/cli/platform.js";
import { createHttpClient, type HttpClient } from "../../src/client/index.js";
import { COMPONENTS, runPlatform } from "../../src/platform/index.js";
import {
  BOOTSTRAP_GIZMO,
  CONTROLLER_GIZMO,
  FORBIDDEN_MESSAGE,
  gadgetComponent,
  HOLDS_LABEL,
} from "../fixtures/gadget/index.js";
import { run, waitFor } from "../support/hearth-process.js";
import { type InProcessServer, startInProcess } from "../support/in-process.js";

const components = [...COMPONENTS, gadgetComponent];

describe("a component added to the list", () => {
  let server: InProcessServer;
  let client: HttpClient;
  let home: string;
  const stop = new AbortController();
  let platform: Promise<void> = Promise.resolve();

  const kubectl = (args: string[], input?: string) =>
    run("kubectl", [`--server=${server.url}`, ...args], {
      env: { ...process.env, HOME: home, KUBECONFIG: join(home, "none") },
      ...(input !== undefined ? { input } : {}),
    });
  const kubectlOk = async (args: string[], input?: string) => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    home = mkdtempSync(join(tmpdir(), "hearth-components-"));
    const definitions = checkedInDefinitions();
    server = await startInProcess({
      admission: [platformAdmission(() => client, definitions, components)],
    });
    client = createHttpClient({ server: server.url, userAgent: "hearth-components-test" });
    let ready = () => {};
    const started = new Promise<void>((resolve) => {
      ready = resolve;
    });
    platform = runPlatform(client, stop.signal, { definitions, components, onReady: ready });
    await Promise.race([started, platform]);
  });

  after(async () => {
    stop.abort();
    await platform.catch(() => {});
    client?.close();
    await server?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it("installs its CRD, applies its bootstrap object and runs its controller", async () => {
    const names = await kubectlOk(["get", "gizmos", "-o", "name"]);
    assert.match(names, new RegExp(`gizmo.test.hearth.io/${BOOTSTRAP_GIZMO}`));
    await waitFor("the controller's Gizmo", async () =>
      (await kubectl(["get", "gizmo", CONTROLLER_GIZMO])).code === 0 ? true : undefined,
    );
  });

  it("serves its app kind from its own definition", async () => {
    const served = await kubectlOk([
      "get",
      "appdef",
      "gadget",
      "-o",
      'jsonpath={.status.conditions[?(@.type=="Served")].status}',
    ]);
    assert.equal(served, "True");
  });

  it("refuses what its admission rule refuses, naming the field", async () => {
    const r = await kubectl(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "apps.cozystack.io/v1alpha1",
        kind: "Gadget",
        metadata: { name: "bad", namespace: "tenant-root" },
        spec: { message: FORBIDDEN_MESSAGE },
      }),
    );
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.message: Invalid value: "forbidden": must not be 'forbidden'/);
    assert.notEqual((await kubectl(["get", "gadget", "bad", "-n", "tenant-root"])).code, 0);
  });

  it("renders its app, and uninstalls it", async () => {
    await kubectlOk(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "apps.cozystack.io/v1alpha1",
        kind: "Gadget",
        metadata: { name: "one", namespace: "tenant-root" },
        spec: { message: "hi" },
      }),
    );
    await kubectlOk([
      "wait",
      "--for=condition=Ready",
      "gadget/one",
      "-n",
      "tenant-root",
      "--timeout=30s",
    ]);
    const message = await kubectlOk([
      "get",
      "configmap",
      "one-message",
      "-n",
      "tenant-root",
      "-o",
      "jsonpath={.data.message}",
    ]);
    assert.equal(message, "hi");

    await kubectlOk(["delete", "gadget", "one", "-n", "tenant-root", "--timeout=30s"]);
    for (const kind of ["configmap/one-message", "secret/one-token"]) {
      const left = await kubectl(["get", kind, "-n", "tenant-root"]);
      assert.notEqual(left.code, 0);
      assert.match(left.stderr, /NotFound/);
    }
  });

  const applyGadget = async (name: string) => {
    await kubectlOk(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "apps.cozystack.io/v1alpha1",
        kind: "Gadget",
        metadata: { name, namespace: "tenant-root" },
        spec: { message: name },
      }),
    );
    await kubectlOk([
      "wait",
      "--for=condition=Ready",
      `gadget/${name}`,
      "-n",
      "tenant-root",
      "--timeout=30s",
    ]);
  };
  const hold = (holder: string, wave: string, gadget: string) =>
    kubectlOk(
      ["apply", "-f", "-"],
      JSON.stringify({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: {
          name: holder,
          namespace: "tenant-root",
          labels: { [`${HOLDS_LABEL}-${wave}`]: gadget },
        },
      }),
    );
  const gone = async (ref: string) => {
    const r = await kubectl(["get", ref, "-n", "tenant-root"]);
    return r.code !== 0 && /NotFound/.test(r.stderr);
  };
  const eventsOf = async (name: string) => {
    const out = await kubectlOk(["get", "events", "-n", "tenant-root", "-o", "json"]);
    const items = JSON.parse(out).items as {
      type: string;
      reason: string;
      message: string;
      involvedObject: { kind: string; name: string };
    }[];
    return items
      .filter((e) => e.involvedObject.kind === "Gadget" && e.involvedObject.name === name)
      .map((e) => `${e.type} ${e.reason}: ${e.message}`);
  };

  it("tears it down in two waves: the second deletes only once the first's wait holds", async () => {
    await applyGadget("two");
    await hold("hold-two", "message", "two");
    await kubectlOk(["delete", "gadget", "two", "-n", "tenant-root", "--wait=false"]);
    await waitFor("the first wave waiting on its holder", async () => {
      const out = await kubectlOk([
        "get",
        "gadget",
        "two",
        "-n",
        "tenant-root",
        "-o",
        "jsonpath={.status.teardown.wave} {.status.teardown.waitingOn}",
      ]);
      return out === "message ConfigMap tenant-root/hold-two to be gone";
    });
    assert.ok(await gone("configmap/two-message"), "the first wave did not delete its ConfigMap");
    assert.equal(
      (await kubectl(["get", "secret", "two-token", "-n", "tenant-root"])).code,
      0,
      "the second wave deleted before the first one's wait held",
    );
    await kubectlOk(["delete", "configmap", "hold-two", "-n", "tenant-root"]);
    await waitFor("the Gadget gone", () => gone("gadget/two"));
    assert.ok(await gone("secret/two-token"));
    const waves = (await eventsOf("two")).filter((e) => e.includes("TeardownWave"));
    assert.deepEqual(waves, [
      'Normal TeardownWave: wave 1/4 "message" started',
      'Normal TeardownWave: wave 2/4 "token" started',
      'Normal TeardownWave: wave 3/4 "children" started',
      'Normal TeardownWave: wave 4/4 "namespaces" started',
    ]);
  });

  it("reports residue when a wave's wait times out, and finishes the teardown", async () => {
    await applyGadget("three");
    await hold("hold-three", "token", "three");
    await kubectlOk(["delete", "gadget", "three", "-n", "tenant-root", "--wait=false"]);
    await waitFor("the Gadget gone past its wave's deadline", () => gone("gadget/three"), 30_000);
    assert.ok(await gone("secret/three-token"));
    const residue = (await eventsOf("three")).filter((e) => e.includes("CleanupResidue"));
    assert.deepEqual(residue, [
      'Warning CleanupResidue: teardown wave "token" did not finish within 2000 ms; left behind: ConfigMap tenant-root/hold-three still holds wave token',
    ]);
    await kubectlOk(["delete", "configmap", "hold-three", "-n", "tenant-root"]);
  });
});
