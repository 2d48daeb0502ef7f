/**
 * `@kubernetes/client-node` (the official JavaScript client) against `hearth up`:
 * an informer on a CRD kind sees add, update and delete, and its cache follows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import * as k8s from "@kubernetes/client-node";
import { type Hearth, REPO_ROOT, startHearth, waitFor } from "../support/hearth-process.js";

interface CronTab extends k8s.KubernetesObject {
  spec?: { cronSpec?: string; image?: string };
}

describe("@kubernetes/client-node against hearth up", () => {
  let h: Hearth;
  let kc: k8s.KubeConfig;

  before(async () => {
    h = await startHearth();
    await h.kubectlOk(["apply", "-f", join(REPO_ROOT, "test/fixtures/crontab-crd.yaml")]);
    await h.kubectlOk(["wait", "--for=condition=Established", "crd/crontabs.stable.example.com"]);
    kc = new k8s.KubeConfig();
    kc.loadFromFile(h.kubeconfig);
  });
  after(async () => {
    await h?.cleanup();
  });

  it("informs on add, update and delete of a custom kind", async () => {
    const api = kc.makeApiClient(k8s.CustomObjectsApi);
    const list = () =>
      api.listNamespacedCustomObject({
        group: "stable.example.com",
        version: "v1",
        namespace: "default",
        plural: "crontabs",
      }) as Promise<k8s.KubernetesListObject<CronTab>>;
    const informer = k8s.makeInformer<CronTab>(
      kc,
      "/apis/stable.example.com/v1/namespaces/default/crontabs",
      list,
    );
    const seen: string[] = [];
    informer.on("add", (o) => seen.push(`add ${o.metadata?.name} ${o.spec?.image}`));
    informer.on("update", (o) => seen.push(`update ${o.metadata?.name} ${o.spec?.image}`));
    informer.on("delete", (o) => seen.push(`delete ${o.metadata?.name}`));
    const errors: unknown[] = [];
    informer.on("error", (e) => errors.push(e));
    await informer.start();
    try {
      const body = {
        apiVersion: "stable.example.com/v1",
        kind: "CronTab",
        metadata: { name: "hourly" },
        spec: { cronSpec: "0 * * * *", image: "a:1" },
      };
      await api.createNamespacedCustomObject({
        group: "stable.example.com",
        version: "v1",
        namespace: "default",
        plural: "crontabs",
        body,
      });
      await waitFor("add event", () => seen.includes("add hourly a:1"));
      await h.kubectlOk([
        "patch",
        "crontab",
        "hourly",
        "--type=merge",
        "-p",
        '{"spec":{"image":"a:2"}}',
      ]);
      await waitFor("update event", () => seen.includes("update hourly a:2"));
      assert.equal(informer.get("hourly", "default")?.spec?.image, "a:2");
      await api.deleteNamespacedCustomObject({
        group: "stable.example.com",
        version: "v1",
        namespace: "default",
        plural: "crontabs",
        name: "hourly",
      });
      await waitFor("delete event", () => seen.includes("delete hourly"));
      assert.equal(informer.get("hourly", "default"), undefined);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
  });
});
