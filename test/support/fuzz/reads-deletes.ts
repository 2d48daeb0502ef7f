/**
 * The reading and deleting requests of the fuzz generator: get, list and watch
 * with every list parameter, delete with query options and DeleteOptions bodies,
 * deletecollection with selectors (on cluster-scoped kinds always a selector,
 * so a correct server deletes only sentinels).
 */
import {
  collectionPath,
  FUZZ_NAMESPACE,
  type FuzzKind,
  SENTINEL_LABEL,
  sentinelNamespace,
  sentinelPath,
} from "./catalogue.js";
import { type Json, oddValue } from "./mutate.js";
import { drawParams, firstRefusal, LABEL_SELECTORS, type Param, query } from "./params.js";
import type { Prng } from "./prng.js";
import type { FuzzRequest } from "./request.js";

const ifSet = (mustRefuse: string | undefined) => (mustRefuse ? { mustRefuse } : {});

/** Names that are no object's, to aim at now and then. */
const ODD_NAMES = ["nope", "UPPER", "a.b.c", "x".repeat(300), "%20", "-", "fz-1.", "fz%2D1"];

export function readRequest(
  rng: Prng,
  k: FuzzKind,
  auth: Record<string, string>,
  budget: { tooLargeRv: number },
): FuzzRequest {
  const kind = rng.weighted([
    [3, "get"],
    [4, "list"],
    [3, "watch"],
  ] as const);
  if (kind === "get") {
    const params = drawParams(rng, "get");
    const path = rng.chance(0.85)
      ? sentinelPath(k)
      : `${collectionPath(k, sentinelNamespace(k))}/${encodeURIComponent(rng.pick(ODD_NAMES))}`;
    return { method: "GET", target: path + query(params), headers: auth, what: `get ${k.kind}` };
  }
  const params = drawParams(rng, "list");
  const allNamespaces = k.namespaced && rng.chance(0.2);
  let path = collectionPath(k, allNamespaces ? undefined : sentinelNamespace(k));
  if (budget.tooLargeRv > 0 && rng.chance(0.02)) {
    // kube waits for a revision it has not reached, then answers 504 Timeout.
    budget.tooLargeRv--;
    params.unshift({ name: "resourceVersion", text: "resourceVersion=999999999" });
    params.push({ name: "resourceVersionMatch", text: "resourceVersionMatch=NotOlderThan" });
    return {
      method: "GET",
      target: path + query(params),
      headers: auth,
      what: `list ${k.kind} at a future resourceVersion`,
      kube5xx: {
        status: 504,
        why: "a resourceVersion beyond the current revision",
        message: /Too large resource version/,
      },
      ...ifSet(firstRefusal(params)),
    };
  }
  if (kind === "watch") {
    if (rng.chance(0.3)) {
      const root = path.startsWith("/api/") ? "/api/v1" : path.split("/").slice(0, 4).join("/");
      path = `${root}/watch${path.slice(root.length)}`;
    } else
      params.push({ name: "watch", text: `watch=${rng.pick(["true", "1", "false", "bogus"])}` });
    params.push({ name: "timeoutSeconds", text: "timeoutSeconds=2" });
  }
  return {
    method: "GET",
    target: path + query(params),
    headers: auth,
    what: `${kind} ${k.kind}${allNamespaces ? " in all namespaces" : ""}`,
    watch: kind === "watch",
    ...ifSet(firstRefusal(params)),
  };
}

/** Names a DELETE may aim at: the sentinel, or names no object has. Never the home namespace. */
function deleteTarget(rng: Prng, k: FuzzKind): { path: string; mustRefuse?: string } {
  if (k.kind === "Namespace" && rng.chance(0.05))
    return {
      path: `${collectionPath(k)}/tenant-root`,
      mustRefuse: "tenant-root cannot be deleted",
    };
  if (k.guarded || rng.chance(0.8)) return { path: sentinelPath(k) };
  return {
    path: `${collectionPath(k, sentinelNamespace(k))}/${encodeURIComponent(rng.pick(ODD_NAMES))}`,
  };
}

export function deleteRequest(rng: Prng, k: FuzzKind, auth: Record<string, string>): FuzzRequest {
  const { path, mustRefuse: targetRefusal } = deleteTarget(rng, k);
  const params = drawParams(rng, "delete");
  const body = deleteBody(rng);
  return {
    method: "DELETE",
    target: path + query(params),
    headers: body ? { ...auth, "Content-Type": "application/json" } : auth,
    ...(body ? { body: body.body } : {}),
    what: `delete ${k.kind}${body ? ` (${body.what})` : ""}`,
    // kube reads DeleteOptions from the body when there is one and then never
    // decodes the query (handlers/delete.go DeleteResource: DecodeParameters only
    // in the `len(body) == 0` branch), so a bad query value is no refusal then.
    ...ifSet((body ? body.mustRefuse : firstRefusal(params)) ?? targetRefusal),
  };
}

/** A DeleteOptions body: valid, mutated, of another kind, with preconditions that fail, or junk. */
function deleteBody(rng: Prng): { body: Buffer; what: string; mustRefuse?: string } | undefined {
  if (rng.chance(0.55)) return undefined;
  const options = { apiVersion: "v1", kind: "DeleteOptions" };
  const json = (o: Json, what: string, mustRefuse?: string) => ({
    body: Buffer.from(JSON.stringify(o)),
    what,
    ...(mustRefuse ? { mustRefuse } : {}),
  });
  return rng.pick([
    () => json({ ...options, gracePeriodSeconds: 0 }, "options"),
    () => json({ ...options, propagationPolicy: "Foreground" }, "options"),
    () =>
      json(
        { ...options, preconditions: { uid: "not-the-uid" } },
        "a uid precondition",
        "a uid precondition that does not hold",
      ),
    () =>
      json(
        { ...options, preconditions: { resourceVersion: "1" } },
        "a stale resourceVersion precondition",
        "a resourceVersion precondition that does not hold",
      ),
    () =>
      json(
        { ...options, preconditions: "junk" },
        "preconditions of the wrong type",
        "preconditions of the wrong type",
      ),
    () =>
      json(
        { ...options, gracePeriodSeconds: "abc" },
        "gracePeriodSeconds of the wrong type",
        "gracePeriodSeconds of the wrong type",
      ),
    () => json({ ...options, dryRun: ["Bogus"] }, "dryRun Bogus", "dryRun Bogus"),
    () =>
      json(
        { ...options, propagationPolicy: "Bogus" },
        "propagationPolicy Bogus",
        "propagationPolicy Bogus",
      ),
    () =>
      json(
        { ...options, orphanDependents: true, propagationPolicy: "Background" },
        "orphanDependents with a propagationPolicy",
        "orphanDependents with a propagationPolicy",
      ),
    () =>
      json(
        { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "x" } },
        "a body of another kind",
        "a body of another kind",
      ),
    () => json({ ...options, gracePeriodSeconds: oddValue(rng) }, "an odd gracePeriodSeconds"),
    () => json(oddValue(rng), "an odd body"),
    () => ({ body: Buffer.from("{not json"), what: "broken JSON", mustRefuse: "broken JSON" }),
  ])();
}

export function deleteCollectionRequest(
  rng: Prng,
  k: FuzzKind,
  auth: Record<string, string>,
): FuzzRequest {
  const params: Param[] = [];
  const across = k.namespaced && rng.chance(0.05);
  if (across) params.push({ name: "labelSelector", text: "labelSelector=app%3Dfuzz" });
  else if (!k.namespaced || k.guarded) {
    // Cluster-scoped: a selector is always the first; a correct server deletes only sentinels.
    const [selector, mustRefuse] = rng.chance(0.5)
      ? [`${SENTINEL_LABEL}=true`, undefined]
      : rng.pick(LABEL_SELECTORS.filter(([, refuse]) => refuse !== undefined));
    params.push({
      name: "labelSelector",
      text: `labelSelector=${encodeURIComponent(selector)}`,
      ...(mustRefuse ? { mustRefuse } : {}),
    });
  }
  // A second labelSelector never follows a forced one: which of two a server reads is not the point.
  const forced = params.length > 0;
  const drawn = drawParams(rng, "list", rng.int(3)).filter(
    (x) => !forced || x.name !== "labelSelector",
  );
  params.push(...drawn, ...drawParams(rng, "delete", rng.int(2)));
  const path = collectionPath(k, k.namespaced && !across ? FUZZ_NAMESPACE : undefined);
  return {
    method: "DELETE",
    target: path + query(params),
    headers: auth,
    what: `deletecollection ${k.kind}${across ? " across all namespaces" : ""}`,
    ...ifSet(
      firstRefusal(params) ?? (across ? "deletecollection across all namespaces" : undefined),
    ),
  };
}
