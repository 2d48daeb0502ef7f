/**
 * The writing requests of the fuzz generator: create, update, every patch type
 * (JSON patch, merge, strategic, apply) on objects and their subresources, with
 * mutated bodies in JSON, YAML or protobuf and the write parameters.
 */
import {
  collectionPath,
  type FuzzKind,
  sentinelName,
  sentinelNamespace,
  sentinelPath,
} from "./catalogue.js";
import { type Body, jsonBody, PROTOBUF, protobufBody, yamlBody } from "./encode.js";
import {
  type Json,
  type JsonObject,
  type Mutated,
  mutate,
  ODD_STRINGS,
  oddValue,
} from "./mutate.js";
import { drawParams, firstRefusal, query } from "./params.js";
import type { Prng } from "./prng.js";
import type { FuzzRequest } from "./request.js";

const isCustom = (k: FuzzKind) =>
  !["", "rbac.authorization.k8s.io", "batch", "coordination.k8s.io", "storage.k8s.io"]
    .concat(["discovery.k8s.io", "events.k8s.io", "admissionregistration.k8s.io"])
    .concat(["apiextensions.k8s.io", "apps"])
    .includes(k.group);

type Op = "create" | "update" | "merge" | "strategic" | "json" | "apply";

export function writeRequest(
  rng: Prng,
  k: FuzzKind,
  seq: number,
  auth: Record<string, string>,
): FuzzRequest {
  const op = rng.weighted<Op>([
    [4, "create"],
    [2, "update"],
    [2, "merge"],
    [2, "strategic"],
    [2, "json"],
    [3, "apply"],
  ]);
  const sub = k.subresources?.filter((s) => s === "status" || s === "scale") ?? [];
  const subresource = sub.length > 0 && op !== "create" && rng.chance(0.2) ? rng.pick(sub) : "";
  const ns = sentinelNamespace(k);
  const name = op === "create" ? `fz-c-${seq}` : sentinelName(k);
  const base = subresource === "scale" ? scaleObject(name, ns) : (k.valid(name, ns) as JsonObject);
  const mutated = mutate(rng, base, k.kind);
  // Whether the body sent carries the mutated object (a JSON patch or a small
  // merge patch does not: what kube would refuse in `mutated` never reaches it).
  let carriesMutation = op === "create" || op === "update" || op === "apply";
  const refusal = (): string | undefined => {
    if (subresource !== "" || !carriesMutation) return undefined;
    if (mutated.onlyCreate && op !== "create") return undefined;
    return mutated.mustRefuse;
  };
  const params = drawParams(rng, op === "apply" ? "apply" : "write");
  const path = op === "create" ? collectionPath(k, ns) : sentinelPath(k);
  const target = subresource ? `${path}/${subresource}` : path;
  const what = `${op}${subresource ? `/${subresource}` : ""} ${k.kind}`;

  let body: Body;
  let method = op === "create" ? "POST" : op === "update" ? "PUT" : "PATCH";
  let mustRefuse = firstRefusal(params);
  if (op === "create" || op === "update") {
    const enc = rng.next();
    if (enc < 0.06 && !isCustom(k)) {
      const pb = protobufBody(rng);
      return {
        method: "POST",
        target: pb.path + query(params),
        headers: { ...auth, "Content-Type": PROTOBUF },
        body: pb.body,
        what: "create from protobuf",
        ...ifSet(firstRefusal(params)),
      };
    }
    body = enc < 0.25 ? yamlBody(rng, mutated) : jsonBody(rng, mutated);
    if (enc > 0.97) {
      body = {
        ...body,
        contentType: rng.pick([
          "text/plain",
          "application/xml",
          "multipart/form-data",
          "application/json; charset=utf-16",
        ]),
      };
      if (!body.contentType.startsWith("application/json"))
        mustRefuse ??= "an unsupported media type";
    }
    if (isCustom(k) && rng.chance(0.03)) {
      body = { ...body, contentType: PROTOBUF };
      mustRefuse ??= "protobuf for a custom resource";
    }
    if (rng.chance(0.03) && subresource === "") {
      const swapped = { ...mutated.object, kind: k.kind === "Secret" ? "ConfigMap" : "Secret" };
      body = jsonBody(rng, { object: swapped });
      mustRefuse ??= "a body of another kind";
    }
  } else if (op === "apply") {
    if (!params.some((x) => x.name === "fieldManager")) {
      if (rng.chance(0.05)) mustRefuse ??= "apply without a fieldManager";
      else params.push({ name: "fieldManager", text: "fieldManager=fuzz" });
    }
    body = rng.chance(0.5)
      ? yamlBody(rng, mutated, "application/apply-patch+yaml")
      : jsonBody(rng, mutated, "application/apply-patch+yaml");
  } else if (op === "json") {
    body = {
      body: Buffer.from(JSON.stringify(jsonPatch(rng, mutated.object))),
      contentType: "application/json-patch+json",
    };
  } else {
    const ct =
      op === "merge" ? "application/merge-patch+json" : "application/strategic-merge-patch+json";
    const patch = patchBody(rng, mutated, ct, op === "strategic");
    carriesMutation = patch.carriesMutation === true;
    body = patch;
    if (op === "strategic" && isCustom(k))
      mustRefuse ??= "a strategic merge patch on a custom resource";
  }
  if (method === "PATCH" && rng.chance(0.04)) {
    body = {
      ...body,
      contentType: rng.pick(["application/json", "text/plain", "application/yaml"]),
    };
    mustRefuse ??= "a patch in an unknown format";
  }
  // The wrong verb for the body: a PUT of a patch, a POST to an object.
  if (rng.chance(0.02)) method = method === "PATCH" ? "PUT" : "POST";
  mustRefuse ??= body.mustRefuse ?? refusal();
  return {
    method,
    target: target + query(params),
    headers: { ...auth, "Content-Type": body.contentType },
    body: body.body,
    what,
    ...ifSet(mustRefuse),
  };
}

const ifSet = (mustRefuse: string | undefined) => (mustRefuse ? { mustRefuse } : {});

function scaleObject(name: string, ns: string | undefined): JsonObject {
  return {
    apiVersion: "autoscaling/v1",
    kind: "Scale",
    metadata: { name, ...(ns ? { namespace: ns } : {}) },
    spec: { replicas: 3 },
  };
}

/** A merge or strategic patch: the mutated object itself, a small change, or no object at all. */
function patchBody(
  rng: Prng,
  m: Mutated,
  contentType: string,
  strategic: boolean,
): Body & { carriesMutation?: boolean } {
  const r = rng.next();
  if (r < 0.4) return { ...jsonBody(rng, m, contentType), carriesMutation: true };
  if (r < 0.5) {
    const text = rng.pick(["null", "[]", "5", '"x"', "", "{", "{}", "true"]);
    return {
      body: Buffer.from(text),
      contentType,
      ...(text === "{" ? { mustRefuse: "truncated JSON" } : {}),
    };
  }
  const small: JsonObject = {
    metadata: {
      labels: { fuzzed: rng.pick(["yes", "no"]) },
      annotations: { n: String(rng.int(1000)) },
    },
  };
  if (strategic) {
    const directive = rng.pick<Json>([
      { $patch: "delete" },
      { $patch: "replace" },
      { $patch: "bogus" },
      { $retainKeys: ["a"] },
      { "$setElementOrder/containers": [{ name: "main" }, { name: "ghost" }] },
      { "$deleteFromPrimitiveList/finalizers": ["kubernetes"] },
      { containers: [{ name: "main", $patch: "delete" }, { $patch: "merge" }] },
      { containers: { $patch: "replace" } },
    ]);
    small.spec = directive;
    if (rng.chance(0.3)) small.metadata = { $patch: rng.pick(["delete", "replace", "nope"]) };
  } else {
    small.spec = rng.chance(0.5) ? null : (oddValue(rng) as Json);
  }
  return jsonBody(rng, { object: small }, contentType);
}

const POINTERS = [
  "/metadata/labels/fuzzed",
  "/metadata/name",
  "/metadata/namespace",
  "/metadata/uid",
  "/metadata/resourceVersion",
  "/metadata/finalizers/-",
  "/metadata/labels/a~1b",
  "/metadata/labels/bad~2escape",
  "/spec",
  "/spec/containers/0/image",
  "/spec/containers/99999999999/name",
  "/spec/containers/-",
  "/spec/containers/-1",
  "/data/new",
  "/status",
  "/kind",
  "",
  "/",
  "metadata",
  `/metadata/labels/${"x".repeat(300)}`,
];

/** A JSON patch document: sometimes valid, often not (bad ops, paths, types, failing tests). */
function jsonPatch(rng: Prng, target: JsonObject): Json {
  const r = rng.next();
  if (r < 0.08) return rng.pick<Json>([{}, null, "x", 5, [[]], [null]]);
  const ops: Json[] = [];
  for (let i = 0, n = 1 + rng.int(4); i < n; i++) {
    const op = rng.pick(["add", "remove", "replace", "move", "copy", "test", "bogus", ""]);
    const path = rng.pick(POINTERS);
    const entry: JsonObject = { op, path };
    if (op === "move" || op === "copy") entry.from = rng.pick(POINTERS);
    if (op !== "remove" && rng.chance(0.9))
      entry.value = rng.chance(0.5) ? (target.metadata ?? null) : oddValue(rng);
    if (rng.chance(0.1)) delete entry.op;
    if (rng.chance(0.05)) entry.path = rng.pick(ODD_STRINGS);
    ops.push(entry);
  }
  return ops;
}
