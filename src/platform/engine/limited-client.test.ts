/**
 * The client a hook gets: the verbs it declared on the kinds it declared reach
 * the real client unchanged; anything else — another kind, another verb, any
 * write but delete, a raw request — is refused with a 403 Forbidden and never
 * reaches the real client.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { hasCode } from "../../api/index.js";
import type { Client } from "../../client/index.js";
import { limitedClient } from "./limited-client.js";
import type { HookPermission } from "./module.js";

const cm: KubeObject = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "a", namespace: "n" },
};

/** A client that records each call as `verb kind args…` and answers with a marker. */
function recordingClient(calls: string[]): Client {
  const record =
    (verb: string) =>
    async (...args: unknown[]): Promise<never> => {
      calls.push(`${verb} ${JSON.stringify(args)}`);
      return { answeredBy: verb } as never;
    };
  return {
    mapper: { resolve: async () => ({ plural: "configmaps", namespaced: true }) },
    get: record("get"),
    list: record("list"),
    watch: (...args: unknown[]) => {
      calls.push(`watch ${JSON.stringify(args.slice(0, 3))}`);
      return (async function* () {})();
    },
    delete: record("delete"),
    deleteCollection: record("deleteCollection"),
    create: record("create"),
    update: record("update"),
    patch: record("patch"),
    apply: record("apply"),
    updateStatus: record("updateStatus"),
    patchStatus: record("patchStatus"),
    request: record("request"),
  };
}

const permissions: HookPermission[] = [
  { apiVersion: "v1", kind: "ConfigMap", verbs: ["get", "list"] },
  { apiVersion: "apps.cozystack.io/v1alpha1", kind: "*", verbs: ["get", "list", "delete"] },
];

function setUp() {
  const calls: string[] = [];
  const inner = recordingClient(calls);
  return { calls, inner, client: limitedClient(inner, permissions) };
}

/** Asserts that `call` is refused with a 403 naming `what`, and returns nothing else. */
async function refused(call: () => unknown, what: RegExp): Promise<void> {
  await assert.rejects(
    async () => call(),
    (e: unknown) => {
      assert.ok(hasCode(e, 403), `not a 403: ${String(e)}`);
      assert.equal((e as { reason: string }).reason, "Forbidden");
      assert.match((e as Error).message, what);
      return true;
    },
  );
}

describe("limitedClient", () => {
  it("forwards the declared verbs with their arguments and answers", async () => {
    const { calls, inner, client } = setUp();
    assert.equal(client.mapper, inner.mapper);
    assert.deepEqual(
      await client.get({ apiVersion: "v1", kind: "ConfigMap", name: "a", namespace: "n" }),
      { answeredBy: "get" },
    );
    assert.deepEqual(
      await client.list({ apiVersion: "v1", kind: "ConfigMap" }, { namespace: "n" }),
      {
        answeredBy: "list",
      },
    );
    const opts = { propagationPolicy: "Background" } as const;
    await client.delete(
      {
        apiVersion: "apps.cozystack.io/v1alpha1",
        kind: "Tenant",
        name: "t",
        namespace: "tenant-a",
      },
      opts,
    );
    await client.deleteCollection(
      { apiVersion: "apps.cozystack.io/v1alpha1", kind: "Postgres" },
      { namespace: "n" },
    );
    const signal = new AbortController().signal;
    for await (const _ of client.watch(
      { apiVersion: "v1", kind: "ConfigMap" },
      { namespace: "n", signal },
    ));
    assert.deepEqual(calls, [
      'get [{"apiVersion":"v1","kind":"ConfigMap","name":"a","namespace":"n"},null]',
      'list [{"apiVersion":"v1","kind":"ConfigMap"},{"namespace":"n"}]',
      'delete [{"apiVersion":"apps.cozystack.io/v1alpha1","kind":"Tenant","name":"t","namespace":"tenant-a"},{"propagationPolicy":"Background"}]',
      'deleteCollection [{"apiVersion":"apps.cozystack.io/v1alpha1","kind":"Postgres"},{"namespace":"n"}]',
      'watch [{"apiVersion":"v1","kind":"ConfigMap"},{"namespace":"n","signal":{}}]',
    ]);
  });

  it("lets a kind of * stand for every kind of its apiVersion only", async () => {
    const { calls, client } = setUp();
    await client.get({
      apiVersion: "apps.cozystack.io/v1alpha1",
      kind: "Redis",
      name: "r",
      namespace: "n",
    });
    await refused(
      () =>
        client.get({
          apiVersion: "apps.cozystack.io/v1beta1",
          kind: "Redis",
          name: "r",
          namespace: "n",
        }),
      /may not get Redis/,
    );
    await refused(
      () => client.get({ apiVersion: "v1", kind: "Secret", name: "s", namespace: "n" }),
      /may not get Secret/,
    );
    assert.equal(calls.length, 1);
  });

  it("refuses a verb the hook did not declare for that kind", async () => {
    const { calls, client } = setUp();
    await refused(
      () => client.delete({ apiVersion: "v1", kind: "ConfigMap", name: "a", namespace: "n" }),
      /may not delete ConfigMap/,
    );
    await refused(
      () => client.deleteCollection({ apiVersion: "v1", kind: "ConfigMap" }, {}),
      /may not delete ConfigMap/,
    );
    // As the HTTP client's watch, a refused one fails once iterated.
    await refused(async () => {
      for await (const _ of client.watch(
        { apiVersion: "v1", kind: "Secret" },
        { signal: new AbortController().signal },
      ));
    }, /may not list Secret/);
    assert.deepEqual(calls, []);
  });

  it("names the object and its group in the refusal", async () => {
    const { client } = setUp();
    await assert.rejects(
      async () => client.delete({ apiVersion: "v1", kind: "ConfigMap", name: "a", namespace: "n" }),
      (e: unknown) => {
        const details = (e as { details: Record<string, unknown> }).details;
        assert.deepEqual(details, { name: "a", group: "", kind: "ConfigMap" });
        return true;
      },
    );
    await assert.rejects(
      async () => client.get({ apiVersion: "example.com/v1", kind: "Widget", name: "w" }),
      (e: unknown) => {
        assert.equal((e as { details: { group: string } }).details.group, "example.com");
        return true;
      },
    );
  });

  it("refuses every write but delete, and raw requests, whatever was declared", async () => {
    const { calls, client } = setUp();
    const app = { ...cm, apiVersion: "apps.cozystack.io/v1alpha1", kind: "Tenant" };
    await refused(() => client.create(app), /may not create objects/);
    await refused(() => client.update(app), /may not update objects/);
    await refused(
      () =>
        client.patch(
          { apiVersion: "apps.cozystack.io/v1alpha1", kind: "Tenant", name: "a", namespace: "n" },
          {},
          { type: "merge" },
        ),
      /may not patch objects/,
    );
    await refused(() => client.apply(app, { fieldManager: "hook" }), /may not apply objects/);
    await refused(() => client.updateStatus(app), /may not write status/);
    await refused(
      () =>
        client.patchStatus(
          { apiVersion: "apps.cozystack.io/v1alpha1", kind: "Tenant", name: "a", namespace: "n" },
          {},
          { type: "merge" },
        ),
      /may not write status/,
    );
    await refused(() => client.request("GET", "/api/v1/secrets"), /may not send raw requests/);
    assert.deepEqual(calls, []);
  });

  it("refuses by rejecting the returned promise, as every Client method fails", async () => {
    const { client } = setUp();
    let pending: Promise<unknown> | undefined;
    assert.doesNotThrow(() => {
      pending = client.get({ apiVersion: "v1", kind: "Secret", name: "s", namespace: "n" });
    });
    await assert.rejects(pending!, (e: unknown) => hasCode(e, 403));
    assert.doesNotThrow(() => {
      pending = client.create(cm);
    });
    await assert.rejects(pending!, (e: unknown) => hasCode(e, 403));
  });
});
