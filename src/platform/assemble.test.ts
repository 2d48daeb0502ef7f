/**
 * What the platform derives from its list of components: which tenant modules
 * have a backend, the app modules, the definitions and the admission rules.
 */
import assert from "node:assert/strict";
import { dirname, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { admissionRules, appModules, assemble } from "./assemble.js";
import type { Component } from "./component.js";
import { COMPONENTS } from "./components.js";
import { loadDefinitions } from "./definitions.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const checkedIn = loadDefinitions(resolve(repoRoot, "config/apps"));

/** A component serving the checked-in Redis, a tenant module, with a module that renders nothing. */
const redis: Component = {
  name: "redis",
  apps: [
    {
      kind: "Redis",
      module: (definition) => ({ definition, version: "0", render: () => [] }),
    },
  ],
};

describe("assemble", () => {
  it("serves Tenant and Etcd, and Etcd is the one tenant module with a backend", () => {
    const { ctx, components } = assemble(COMPONENTS, checkedIn);
    assert.deepEqual([...ctx.servedModules], ["Etcd"]);
    const kinds = appModules(components, ctx).map((m) => m.definition.spec.application.kind);
    assert.deepEqual(kinds, ["Tenant", "Etcd"]);
    assert.deepEqual([...admissionRules(components).keys()], ["Tenant", "Etcd"]);
  });

  it("derives the served tenant modules from the list: one more component, one more module", () => {
    assert.equal(checkedIn.get("Redis")?.spec.dashboard?.module, undefined);
    const module = { ...checkedIn.get("Etcd")!, metadata: { name: "mod" } };
    const withModule: Component = {
      name: "mod",
      apps: [{ kind: "Mod", definition: withKind(module, "Mod"), module: redis.apps![0]!.module }],
    };
    const { ctx } = assemble([...COMPONENTS, redis, withModule], checkedIn);
    assert.deepEqual([...ctx.servedModules].sort(), ["Etcd", "Mod"]);
    assert.equal(ctx.definitions.get("Mod")?.spec.application.kind, "Mod");
  });

  it("refuses an app kind without a definition", () => {
    const orphan: Component = { name: "orphan", apps: [{ ...redis.apps![0]!, kind: "Nothing" }] };
    assert.throws(() => assemble([orphan], checkedIn), /no ApplicationDefinition for Nothing/);
  });

  it("installs the CRDs of every component, the operator's, the DataStore's and the TenantControlPlane's among them", () => {
    const kinds = COMPONENTS.flatMap((c) => c.crds ?? []).map(
      (crd) => (crd.spec as { names: { kind: string } }).names.kind,
    );
    assert.deepEqual(kinds.sort(), [
      "DataStore",
      "EtcdCluster",
      "EtcdMember",
      "TenantControlPlane",
      "WorkloadMonitor",
    ]);
  });
});

function withKind(def: NonNullable<ReturnType<typeof checkedIn.get>>, kind: string): typeof def {
  return { ...def, spec: { ...def.spec, application: { ...def.spec.application, kind } } };
}
