/**
 * The spec shape check (engine/spec-shape.ts): the checked-in Tenant and Etcd definitions match
 * their modules' shapes; a shape missing a key, naming one the schema lacks,
 * or of another type is refused; a stored spec is checked per key, with
 * `int-or-string` taking a quantity either way.
 */
import assert from "node:assert/strict";
import { dirname, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { etcdModule } from "./apps/etcd/index.js";
import { tenantModule } from "./apps/tenant/index.js";
import { loadDefinitions } from "./definitions.js";
import { shapeProblem, specProblem } from "./engine/spec-shape.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const definitions = loadDefinitions(resolve(repoRoot, "config/apps"));

describe("shapeProblem", () => {
  it("finds none for the Tenant and Etcd modules against their checked-in definitions", () => {
    const tenant = tenantModule(definitions.get("Tenant")!, new Set());
    const etcd = etcdModule(definitions.get("Etcd")!);
    assert.equal(shapeProblem(tenant.definition, tenant.spec!), undefined);
    assert.equal(shapeProblem(etcd.definition, etcd.spec!), undefined);
  });

  it("names each key the module and the schema disagree on", () => {
    const etcd = etcdModule(definitions.get("Etcd")!);
    const { version: _dropped, ...rest } = etcd.spec!;
    const problem = shapeProblem(etcd.definition, { ...rest, replicas: "string", extra: "object" });
    assert.equal(
      problem,
      "the module's spec of Etcd does not match its definition: replicas: the schema says integer, the module string; extra: not in the schema; version: in the schema, not in the module's spec",
    );
  });
});

describe("specProblem", () => {
  const shape = { size: "int-or-string", replicas: "integer", name: "string" };

  it("takes a spec whose keys are each of their type, or no spec", () => {
    assert.equal(specProblem(shape, { size: "4Gi", replicas: 3, name: "a" }), undefined);
    assert.equal(specProblem(shape, { size: 4294967296 }), undefined);
    assert.equal(specProblem(shape, undefined), undefined);
  });

  it("names a key of the wrong type and a key the shape lacks", () => {
    assert.equal(
      specProblem(shape, { size: true, replicas: 1.5, other: 1 }),
      "spec.size: must be of type int-or-string; spec.replicas: must be of type integer; spec.other: not a field of this kind",
    );
    assert.equal(specProblem(shape, []), "spec must be an object");
  });
});
