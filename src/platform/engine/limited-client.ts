/**
 * The client a hook gets: only the verbs it declared, on the kinds it declared.
 * Anything else is refused with a Forbidden error before a request is sent, so a
 * hook cannot reach beyond what its module says it needs. Its gets and lists
 * go to `reader` (default: `client`).
 */
import { ForbiddenError } from "../../api/index.js";
import type { Client, Reader } from "../../client/index.js";
import type { HookPermission } from "./module.js";

type Verb = HookPermission["verbs"][number];

export function limitedClient(
  client: Client,
  permissions: HookPermission[],
  reader: Reader = client,
): Client {
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
    get: async (ref, opts) => {
      guard("get", ref.apiVersion, ref.kind, ref.name);
      return reader.get(ref, opts);
    },
    list: async (type, opts) => {
      guard("list", type.apiVersion, type.kind);
      return reader.list(type, opts);
    },
    // A refused watch fails when iterated, as a watch the server refuses does.
    watch: (type, opts) =>
      (async function* () {
        guard("list", type.apiVersion, type.kind);
        yield* client.watch(type, opts);
      })(),
    delete: async (ref, opts) => {
      guard("delete", ref.apiVersion, ref.kind, ref.name);
      return client.delete(ref, opts);
    },
    deleteCollection: async (type, opts) => {
      guard("delete", type.apiVersion, type.kind);
      return client.deleteCollection(type, opts);
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
