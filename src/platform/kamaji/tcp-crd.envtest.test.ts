/**
 * The TenantControlPlane CRD on a real in-process apiserver: Kamaji's own
 * samples are accepted with their fields kept (kubelet patches, konnectivity,
 * additional containers), the defaults land (2 replicas, port 6443, the
 * CIDRs, cluster.local, the rolling-update strategy), required fields and
 * Kamaji's immutability rules are refused with their messages, and the CRD
 * serves Kamaji's names and printer columns with `/scale` on the replicas.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseAllDocuments } from "yaml";
import { type Env, startEnv } from "../../../test/support/envtest.js";
import { REPO_ROOT, waitFor } from "../../../test/support/hearth-process.js";
import type { KubeObject } from "../../api/index.js";
import { DATASTORE_CRD } from "../datastore/index.js";
import {
  TENANT_CONTROL_PLANE,
  TENANT_CONTROL_PLANE_CRD,
  type TenantControlPlane,
} from "./index.js";

const SAMPLES = join(REPO_ROOT, "test/fixtures/kamaji");
const NS = "default";

const load = (file: string): KubeObject[] =>
  parseAllDocuments(readFileSync(file, "utf8"))
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);

const minimal = (name: string, spec: Record<string, unknown> = {}): TenantControlPlane => ({
  ...TENANT_CONTROL_PLANE,
  metadata: { name, namespace: NS },
  spec: {
    controlPlane: { service: { serviceType: "ClusterIP" } },
    kubernetes: { version: "v1.30.0" },
    ...spec,
  },
});

/** The message of a refused write. */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail("the write was accepted");
}

describe("the TenantControlPlane CRD", () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
    await env.client.create(DATASTORE_CRD);
    await env.client.create(TENANT_CONTROL_PLANE_CRD);
    await waitFor("the kinds served", async () => {
      await env.client.list(TENANT_CONTROL_PLANE);
      await env.client.list({ apiVersion: "kamaji.clastix.io/v1alpha1", kind: "DataStore" });
      return true;
    });
    await env.client.create({
      apiVersion: "v1",
      kind: "Namespace",
      metadata: { name: "tenant-system" },
    });
  });
  after(() => env?.stop());

  it("serves Kamaji's names, columns and subresources", () => {
    const spec = TENANT_CONTROL_PLANE_CRD.spec as {
      names: { shortNames: string[]; categories: string[] };
      scope: string;
      versions: {
        subresources: { scale: Record<string, string> };
        additionalPrinterColumns: { name: string; jsonPath: string }[];
      }[];
    };
    assert.equal(spec.scope, "Namespaced");
    assert.deepEqual(spec.names.shortNames, ["tcp"]);
    const v = spec.versions[0]!;
    assert.equal(v.subresources.scale.specReplicasPath, ".spec.controlPlane.deployment.replicas");
    assert.deepEqual(
      v.additionalPrinterColumns.map((c) => c.name),
      [
        "Version",
        "Installed Version",
        "Status",
        "Control-Plane endpoint",
        "Kubeconfig",
        "Datastore",
        "Age",
      ],
    );
  });

  it("accepts every sample of Kamaji's and keeps the fields Hearth does not use", async () => {
    const files = readdirSync(SAMPLES).filter((f) => f.endsWith(".yaml"));
    assert.ok(files.length >= 10, `samples: ${files}`);
    for (const file of files)
      for (const obj of load(join(SAMPLES, file))) {
        const namespaced = obj.kind !== "DataStore";
        const namespace = obj.metadata.namespace ?? (namespaced ? NS : undefined);
        await env.client.create({
          ...obj,
          metadata: { ...obj.metadata, ...(namespace ? { namespace } : {}) },
        });
      }
    const get = (name: string, namespace = NS) =>
      env.client.get<TenantControlPlane>({ ...TENANT_CONTROL_PLANE, namespace, name });
    const k8s = await get("k8s-133");
    assert.deepEqual(k8s.spec.kubernetes.kubelet?.configurationJSONPatches, [
      {
        op: "add",
        path: "/featureGates",
        value: { KubeletCrashLoopBackOffMax: false, KubeletEnsureSecretPulledImages: false },
      },
      { op: "replace", path: "/cgroupDriver", value: "systemd" },
    ]);
    assert.deepEqual(k8s.spec.addons?.konnectivity, {
      server: { port: 8132 },
      agent: { mode: "DaemonSet" },
    });
    assert.equal(k8s.spec.networkProfile?.serviceCidr, "10.96.0.0/16");
    const extra = await get("additionalcontainers");
    assert.equal(extra.spec.controlPlane.deployment?.replicas, 1);
    assert.equal(
      (extra.spec.controlPlane.deployment!.additionalContainers as { image: string }[])[0]?.image,
      "registry.k8s.io/e2e-test-images/nginx:1.15-4",
    );
    const hostNetwork = await get("example-hostnetwork-tcp", "tenant-system");
    assert.equal(hostNetwork.spec.networkProfile?.address, "10.0.0.100");
    assert.deepEqual(hostNetwork.spec.kubernetes.kubelet?.preferredAddressTypes, [
      "InternalIP",
      "ExternalIP",
    ]);
  });

  it("defaults replicas, strategy, port, CIDRs and cluster domain; leaves schema and user to the controller", async () => {
    const tcp = await env.client.create(minimal("defaults"));
    assert.deepEqual(tcp.spec.controlPlane.deployment?.replicas, 2);
    assert.deepEqual(tcp.spec.controlPlane.deployment?.strategy, {
      type: "RollingUpdate",
      rollingUpdate: { maxSurge: "100%", maxUnavailable: 0 },
    });
    assert.deepEqual(tcp.spec.networkProfile, {
      port: 6443,
      serviceCidr: "10.96.0.0/16",
      podCidr: "10.244.0.0/16",
      clusterDomain: "cluster.local",
    });
    assert.equal(tcp.spec.dataStoreSchema, undefined);
    assert.equal(tcp.spec.dataStoreUsername, undefined);
  });

  it("refuses a control plane without a version or a service type", async () => {
    const noVersion = minimal("no-version", { kubernetes: {} });
    assert.match(
      await refusal(env.client.create(noVersion)),
      /spec\.kubernetes\.version: Required value/,
    );
    const noType = minimal("no-type", { controlPlane: { service: {} } });
    assert.match(
      await refusal(env.client.create(noType)),
      /spec\.controlPlane\.service\.serviceType: Required value/,
    );
    const badType = minimal("bad-type", { controlPlane: { service: { serviceType: "External" } } });
    assert.match(
      await refusal(env.client.create(badType)),
      /supported values: "ClusterIP", "NodePort", "LoadBalancer"/,
    );
    const konnectivity = load(join(SAMPLES, "refused/tenantcontrolplane_konnectivity.yaml"))[0]!;
    assert.match(
      await refusal(env.client.create({ ...konnectivity, metadata: { name: "k", namespace: NS } })),
      /spec\.controlPlane: Required value/,
    );
  });

  it("refuses changing or unsetting dataStoreSchema, dataStoreUsername, the cluster domain and unsetting dataStore", async () => {
    const tcp = await env.client.create(
      minimal("immutable", { dataStore: "etcd", dataStoreSchema: "s1", dataStoreUsername: "u1" }),
    );
    const ref = { ...TENANT_CONTROL_PLANE, namespace: NS, name: "immutable" };
    const patch = (body: object) => env.client.patch(ref, { spec: body }, { type: "merge" });
    assert.match(
      await refusal(patch({ dataStoreSchema: "s2" })),
      /changing the dataStoreSchema is not supported/,
    );
    assert.match(
      await refusal(patch({ dataStoreUsername: "u2" })),
      /changing the dataStoreUsername is not supported/,
    );
    assert.match(
      await refusal(patch({ dataStoreSchema: null })),
      /unsetting the dataStoreSchema is not supported/,
    );
    assert.match(
      await refusal(patch({ dataStore: null })),
      /unsetting the dataStore is not supported/,
    );
    assert.match(
      await refusal(patch({ networkProfile: { clusterDomain: "tenant.local" } })),
      /changing the cluster domain is not supported/,
    );
    // What may change does: the DataStore (a migration, later) and the replicas.
    const moved = await patch({
      dataStore: "other",
      controlPlane: { deployment: { replicas: 3 } },
    });
    assert.equal((moved as TenantControlPlane).spec.dataStore, "other");
    assert.equal((moved as TenantControlPlane).spec.controlPlane.deployment?.replicas, 3);
    assert.equal(tcp.spec.dataStoreSchema, "s1");
  });
});
