/**
 * The storage kinds as the apiserver serves them (no controllers running):
 * discovery and kubectl's columns, kube's defaults, the protection finalizers,
 * DefaultStorageClass, and kube's refusals — with the field and the rule named.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
} from "../../src/api/storage.js";
import type { KubeObject } from "../../src/api/types.js";
import { claimYaml, type StorageEnv, startStorageEnv } from "../support/storage-env.js";

interface Status {
  code: number;
  message: string;
}

describe("storage API", () => {
  let env: StorageEnv;
  const post = async (path: string, body: unknown) =>
    env.server.request("POST", path, JSON.stringify(body));
  const status = (r: { body: unknown }) => r.body as Status;
  const pvc = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } }, ...spec },
  });
  const pv = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: "v1",
    kind: "PersistentVolume",
    metadata: { name },
    spec: { capacity: { storage: "1Gi" }, accessModes: ["ReadWriteOnce"], ...spec },
  });
  const sc = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name },
    provisioner: "example.com/disk",
    ...extra,
  });
  const CLAIMS = "/api/v1/namespaces/default/persistentvolumeclaims";
  const createAs = async <T extends KubeObject>(o: KubeObject) => (await env.client.create(o)) as T;

  before(async () => {
    env = await startStorageEnv({ withControllers: false });
  });
  after(async () => {
    await env?.stop();
  });

  it("serves the kinds with kube's names", async () => {
    const out = await env.kubectlOk(["api-resources"]);
    assert.match(out, /storageclasses\s+sc\s+storage\.k8s\.io\/v1\s+false\s+StorageClass/);
    assert.match(out, /persistentvolumes\s+pv\s+v1\s+false\s+PersistentVolume/);
    assert.match(out, /persistentvolumeclaims\s+pvc\s+v1\s+true\s+PersistentVolumeClaim/);
  });

  it("leaves a claim without a class alone while no class is default, and defaults it after", async () => {
    const before = await createAs<PersistentVolumeClaim>({
      ...pvc("early", {}),
      metadata: { name: "early", namespace: "default" },
    });
    assert.equal(before.spec?.storageClassName, undefined);
    assert.equal(before.status?.phase, "Pending");
    assert.equal(before.spec?.volumeMode, "Filesystem");
    assert.deepEqual(before.metadata.finalizers, ["kubernetes.io/pvc-protection"]);

    await env.client.create(
      sc("old", {
        metadata: {
          name: "old",
          annotations: { "storageclass.kubernetes.io/is-default-class": "true" },
        },
      }),
    );
    const created = await createAs<StorageClass>(
      sc("new", {
        metadata: {
          name: "new",
          annotations: { "storageclass.kubernetes.io/is-default-class": "true" },
        },
      }),
    );
    assert.equal(created.reclaimPolicy, "Delete");
    assert.equal(created.volumeBindingMode, "Immediate");
    await env.kubectlOk(["apply", "-f", "-"], claimYaml("later", "1Gi"));
    const later = await env.get<PersistentVolumeClaim>("PersistentVolumeClaim", "later", "default");
    // Both were created within one second: kube's tie-break is the name.
    assert.ok(["new", "old"].includes(later?.spec?.storageClassName ?? ""));
    await env.kubectlOk(
      ["apply", "-f", "-"],
      claimYaml("classless", "1Gi", { storageClassName: "" }),
    );
    const classless = await env.get<PersistentVolumeClaim>(
      "PersistentVolumeClaim",
      "classless",
      "default",
    );
    assert.equal(classless?.spec?.storageClassName, "", "an explicit empty class stays empty");

    const classes = await env.kubectlOk(["get", "sc"]);
    assert.match(
      classes,
      /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE$/m,
    );
    assert.match(classes, /new \(default\)\s+example\.com\/disk\s+Delete\s+Immediate\s+false/);
    const claims = await env.kubectlOk(["get", "pvc", "-o", "wide"]);
    assert.match(
      claims,
      /^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE\s+VOLUMEMODE$/m,
    );
    assert.match(claims, /early\s+Pending\s+<unset>\s+\S+\s+Filesystem/);
  });

  it("refuses bad claims with the field and the rule", async () => {
    let r = await post(CLAIMS, pvc("x", { accessModes: [] }));
    assert.equal(r.status, 422);
    assert.match(
      status(r).message,
      /spec\.accessModes: Required value: at least 1 access mode is required/,
    );
    r = await post(CLAIMS, pvc("x", { resources: { requests: { storage: "0" } } }));
    assert.match(
      status(r).message,
      /spec\.resources\[storage\]: Invalid value: "0": must be greater than zero/,
    );
    r = await post(CLAIMS, pvc("x", { resources: {} }));
    assert.match(status(r).message, /spec\.resources\[storage\]: Required value/);
    r = await post(CLAIMS, pvc("x", { resources: { requests: { storage: "lots" } } }));
    assert.equal(r.status, 400);
    assert.match(
      status(r).message,
      /cannot be handled as a PersistentVolumeClaim: quantities must match the regular expression/,
    );
    r = await post(CLAIMS, pvc("x", { accessModes: ["ReadWriteOncePod", "ReadOnlyMany"] }));
    assert.match(status(r).message, /may not use ReadWriteOncePod with other access modes/);
    r = await post(CLAIMS, pvc("x", { accessModes: ["WriteSometimes"] }));
    assert.match(status(r).message, /spec\.accessModes: Unsupported value: "WriteSometimes"/);
  });

  it("keeps a claim's spec immutable except a bound claim's growing request", async () => {
    const claims = (name: string) => `${CLAIMS}/${name}`;
    await env.client.create(sc("grow", { allowVolumeExpansion: true }));
    const c = await createAs<PersistentVolumeClaim>({
      ...pvc("fixed", { storageClassName: "grow" }),
      metadata: { name: "fixed", namespace: "default" },
    });
    const patch = (body: unknown) =>
      env.server.request("PATCH", claims("fixed"), JSON.stringify(body), {
        "Content-Type": "application/merge-patch+json",
      });
    let r = await patch({ spec: { accessModes: ["ReadWriteMany"] } });
    assert.equal(r.status, 422);
    assert.match(
      status(r).message,
      /spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/,
    );
    r = await patch({ spec: { resources: { requests: { storage: "2Gi" } } } });
    assert.equal(r.status, 422, "an unbound claim's request is fixed too");
    // Bind it by hand: volumeName may be set once, the status says Bound.
    r = await patch({ spec: { volumeName: "some-pv" } });
    assert.equal(r.status, 200);
    await env.client.patchStatus(
      { apiVersion: "v1", kind: "PersistentVolumeClaim", name: "fixed", namespace: "default" },
      { status: { phase: "Bound" } },
      { type: "merge" },
    );
    r = await patch({ spec: { resources: { requests: { storage: "2Gi" } } } });
    assert.equal(r.status, 200, r.text);
    r = await patch({ spec: { resources: { requests: { storage: "1Gi" } } } });
    assert.equal(r.status, 422);
    assert.match(
      status(r).message,
      /spec\.resources\.requests\.storage: Forbidden: field can not be less than previous value/,
    );
    r = await patch({ spec: { volumeName: "another-pv" } });
    assert.equal(r.status, 422);
    assert.ok(c.metadata.uid);

    await env.client.create({
      ...pvc("rigid", { storageClassName: "old", volumeName: "v" }),
      metadata: { name: "rigid", namespace: "default" },
    });
    await env.client.patchStatus(
      { apiVersion: "v1", kind: "PersistentVolumeClaim", name: "rigid", namespace: "default" },
      { status: { phase: "Bound" } },
      { type: "merge" },
    );
    r = await env.server.request(
      "PATCH",
      claims("rigid"),
      JSON.stringify({ spec: { resources: { requests: { storage: "5Gi" } } } }),
      { "Content-Type": "application/merge-patch+json" },
    );
    assert.equal(r.status, 403);
    assert.match(
      status(r).message,
      /only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize/,
    );
  });

  it("defaults and checks volumes", async () => {
    const v = await createAs<PersistentVolume>(pv("plain", { hostPath: { path: "/tmp/plain" } }));
    assert.equal(v.spec?.persistentVolumeReclaimPolicy, "Retain");
    assert.equal(v.status?.phase, "Pending");
    assert.ok(v.status?.lastPhaseTransitionTime);
    assert.deepEqual(v.metadata.finalizers, ["kubernetes.io/pv-protection"]);
    let r = await post("/api/v1/persistentvolumes", pv("none", {}));
    assert.match(status(r).message, /spec: Required value: must specify a volume type/);
    r = await post(
      "/api/v1/persistentvolumes",
      pv("two", { hostPath: { path: "/a" }, nfs: { server: "s", path: "/b" } }),
    );
    assert.match(
      status(r).message,
      /spec\.nfs: Forbidden: may not specify more than 1 volume type/,
    );
    r = await post("/api/v1/persistentvolumes", pv("loc", { local: { path: "/a" } }));
    assert.match(
      status(r).message,
      /spec\.nodeAffinity: Required value: Local volume requires node affinity/,
    );
    r = await post(
      "/api/v1/persistentvolumes",
      pv("cap", { capacity: {}, hostPath: { path: "/a" } }),
    );
    assert.match(status(r).message, /spec\.capacity: Required value/);
    r = await env.server.request(
      "PATCH",
      "/api/v1/persistentvolumes/plain",
      JSON.stringify({ spec: { hostPath: { path: "/elsewhere" } } }),
      { "Content-Type": "application/merge-patch+json" },
    );
    assert.equal(r.status, 422);
    assert.match(status(r).message, /spec\.persistentvolumesource: Forbidden/);
    const table = await env.kubectlOk(["get", "pv", "-o", "wide"]);
    assert.match(
      table,
      /^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE\s+VOLUMEMODE$/m,
    );
    assert.match(table, /plain\s+1Gi\s+RWO\s+Retain\s+Pending\s+<unset>\s+\S+\s+Filesystem/);
  });

  it("keeps a class's provisioner, parameters and policies", async () => {
    await env.client.create(sc("fixed-class", { parameters: { a: "1" } }));
    const patch = (body: unknown) =>
      env.server.request(
        "PATCH",
        "/apis/storage.k8s.io/v1/storageclasses/fixed-class",
        JSON.stringify(body),
        { "Content-Type": "application/merge-patch+json" },
      );
    let r = await patch({ provisioner: "example.com/other" });
    assert.match(
      status(r).message,
      /provisioner: Forbidden: updates to provisioner are forbidden\./,
    );
    r = await patch({ parameters: { a: "2" } });
    assert.match(status(r).message, /parameters: Forbidden: updates to parameters are forbidden\./);
    r = await patch({ reclaimPolicy: "Retain" });
    assert.match(
      status(r).message,
      /reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden\./,
    );
    r = await patch({ allowVolumeExpansion: true });
    assert.equal(r.status, 200);
    r = await post(
      "/apis/storage.k8s.io/v1/storageclasses",
      sc("bad", { reclaimPolicy: "Recycle" }),
    );
    assert.match(
      status(r).message,
      /reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"/,
    );
    r = await post("/apis/storage.k8s.io/v1/storageclasses", {
      ...sc("nop"),
      provisioner: undefined,
    });
    assert.match(status(r).message, /provisioner: Required value/);
  });
});
