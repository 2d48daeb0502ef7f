/**
 * The client a hook gets: only the verbs it declared, on the kinds it declared.
 * Anything else is refused with a Forbidden error before a request is sent, so a
 * hook cannot reach beyond what its module says it needs.
 */
import { ForbiddenError } from "../../api/errors.js";
import type { Client } from "../../client/index.js";
import type { HookPermission } from "./module.js";

type Verb = HookPermission["verbs"][number];

export function limitedClient(client: Client, permissions: HookPermission[]): Client {
  const allowed = (verb: Verb, apiVersion: string, kind: string) =>
    permissions.some(
      (p) =>
        p.apiVersion === apiVersion &&
        (p.kind === kind || p.kind === "*") &&
        p.verbs.includes(verb),
    );
  const guard = (verb: Verb, apiVersion: string, kind: string, name?: string) => {
    if (allowed(verb, apiVersion, kind)) return;
    const group = apiVersion.includes("/") ? apiVersion.split("/")[0]! : "";
    throw new ForbiddenError(
      { group, resource: kind, ...(name !== undefined ? { name } : {}) },
      `the hook may not ${verb} ${kind}: not among its declared permissions`,
    );
  };
  // Every refusal is a rejected promise, as every Client method fails.
  const refuse = (what: string) => async () => {
    throw new ForbiddenError({ group: "", resource: "hooks" }, `a hook may not ${what}`);
  };
  return {
    mapper: client.mapper,
    get: async (apiVersion, kind, name, namespace) => {
      guard("get", apiVersion, kind, name);
      return client.get(apiVersion, kind, name, namespace);
    },
    list: async (apiVersion, kind, opts) => {
      guard("list", apiVersion, kind);
      return client.list(apiVersion, kind, opts);
    },
    // A refused watch fails when iterated, as a watch the server refuses does.
    watch: (apiVersion, kind, opts, signal) =>
      (async function* () {
        guard("list", apiVersion, kind);
        yield* client.watch(apiVersion, kind, opts, signal);
      })(),
    delete: async (apiVersion, kind, name, namespace, opts) => {
      guard("delete", apiVersion, kind, name);
      return client.delete(apiVersion, kind, name, namespace, opts);
    },
    deleteCollection: async (apiVersion, kind, opts) => {
      guard("delete", apiVersion, kind);
      return client.deleteCollection(apiVersion, kind, opts);
    },
    create: refuse("create objects"),
    update: refuse("update objects"),
    patch: refuse("patch objects"),
    apply: refuse("apply objects"),
    updateStatus: refuse("write status"),
    patchStatus: refuse("write status"),
    request: refuse("send raw requests"),
  };
}
