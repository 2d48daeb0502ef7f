/**
 * `/metrics` of a real `hearth up` counts long-running requests while they are
 * open: kubectl watches (`get -w`, in a namespace, of one object, with a label
 * selector) as kube's `apiserver_longrunning_requests{verb="WATCH"}` with kube's
 * scope, and by namespace and selector in `hearth_apiserver_watches`; a
 * followed pod log as `verb="CONNECT",subresource="log"`. Ending the kubectl
 * process brings each count back down (and removes the Hearth series).
 * Counts are compared with the ones before, as hearth up's own controllers
 * hold watches too.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { clientFromKubeconfig, type HttpClient } from "../../src/client/index.js";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { applyObjects, nodeName, stopAndClean } from "../support/node-pods.js";
import { podSkipReason } from "../support/test-network.js";

const NS = "longrunning";

const longRunning = (verb: string, resource: string, subresource: string, scope: string) =>
  `apiserver_longrunning_requests{verb="${verb}",group="",version="v1",resource="${resource}",subresource="${subresource}",scope="${scope}",component="apiserver"}`;
const watches = (namespace: string, labelSelector: string, fieldSelector: string) =>
  `hearth_apiserver_watches{group="",version="v1",resource="configmaps",namespace="${namespace}",label_selector="${labelSelector}",field_selector="${fieldSelector}"}`;

describe("long-running request metrics under hearth up", { skip: podSkipReason() }, () => {
  let h: Hearth;
  let client: HttpClient;
  const spawned: ChildProcess[] = [];

  before(async () => {
    h = await startHearth({ timeoutMs: 60_000 });
    client = await clientFromKubeconfig(h.kubeconfig);
    await h.kubectlOk(["create", "namespace", NS]);
    await h.kubectlOk(["create", "configmap", "one", "-n", NS]);
  });
  after(async () => {
    for (const c of spawned) c.kill("SIGKILL");
    client?.close();
    await stopAndClean(h);
  });

  /** The value of each series named (0 when absent), from one scrape of /metrics. */
  const scrape = async (series: string[]): Promise<number[]> => {
    const res = await client.request("GET", "/metrics");
    assert.equal(res.status, 200);
    const lines = res.body.split("\n");
    return series.map((s) => {
      const line = lines.find((l) => l.startsWith(`${s} `));
      return line === undefined ? 0 : Number(line.slice(s.length + 1));
    });
  };
  const until = (what: string, series: string[], expected: number[]) =>
    waitFor(
      what,
      async () => {
        const got = await scrape(series);
        return got.every((v, i) => v === expected[i]) || undefined;
      },
      20_000,
    ).catch(async (e: unknown) => {
      throw new Error(`${String(e)}; last values ${JSON.stringify(await scrape(series))}`);
    });
  const spawn = (args: string[]) => {
    const c = h.kubectlSpawn(args);
    spawned.push(c);
    return c;
  };
  const end = async (c: ChildProcess) => {
    if (c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((r) => c.once("exit", r));
      c.kill();
      await exited;
    }
  };

  it("counts kubectl watches by kube's scope and by selector, and counts them down when they end", async () => {
    const series = [
      longRunning("WATCH", "configmaps", "", "namespace"),
      longRunning("WATCH", "configmaps", "", "resource"),
      watches(NS, "", ""),
      watches(NS, "app=web", ""),
      watches(NS, "", "metadata.name=one"),
    ];
    const [inNamespace = 0, ofOne = 0] = await scrape(series);
    const plain = spawn(["get", "configmaps", "-n", NS, "-w"]);
    const plain2 = spawn(["get", "configmaps", "-n", NS, "-w"]);
    const labelled = spawn(["get", "configmaps", "-n", NS, "-l", "app=web", "-w"]);
    const one = spawn(["get", "configmap", "one", "-n", NS, "-w"]);
    await until("four watches open", series, [inNamespace + 3, ofOne + 1, 2, 1, 1]);

    await end(plain);
    await until("one plain watch ended", series, [inNamespace + 2, ofOne + 1, 1, 1, 1]);
    await Promise.all([plain2, labelled, one].map(end));
    await until("every watch ended", series, [inNamespace, ofOne, 0, 0, 0]);
  });

  it("counts a followed pod log as CONNECT on pods/log while it streams", async () => {
    const node = await nodeName(h);
    await applyObjects(h, [
      {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name: "talker", namespace: NS },
        spec: {
          nodeName: node,
          terminationGracePeriodSeconds: 1,
          containers: [
            {
              name: "main",
              image: "busybox",
              command: ["sh", "-c", "echo hello; trap 'exit 0' TERM; while :; do sleep 0.2; done"],
            },
          ],
        },
      },
    ]);
    await h.kubectlOk(["wait", "--for=condition=Ready", "pod/talker", "-n", NS, "--timeout=60s"], {
      timeoutMs: 70_000,
    });
    const series = [longRunning("CONNECT", "pods", "log", "resource")];
    const follow = spawn(["logs", "-f", "talker", "-n", NS]);
    let streamed = "";
    follow.stdout?.on("data", (d) => (streamed += d));
    await waitFor("the followed log", () => streamed.includes("hello"), 20_000);
    await until("one log stream open", series, [1]);
    await end(follow);
    await until("the log stream ended", series, [0]);
  });
});
