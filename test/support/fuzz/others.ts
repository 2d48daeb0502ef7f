/**
 * The rest of the fuzz generator's requests: the subresources with their own
 * bodies (binding, log, token, finalize, scale), the computed reviews, odd
 * paths (dot segments, encodings, `//`, unknown groups), non-resource paths,
 * and raw bytes with malformed request lines, headers and framing.
 */
import {
  ADMIN_TOKEN,
  collectionPath,
  FUZZ_KINDS,
  type FuzzKind,
  REVIEW_KINDS,
  sentinelPath,
} from "./catalogue.js";
import { jsonBody, yamlBody } from "./encode.js";
import { type JsonObject, mutate } from "./mutate.js";
import { drawParams, firstRefusal, query } from "./params.js";
import type { Prng } from "./prng.js";
import type { FuzzRequest } from "./request.js";

const ifSet = (mustRefuse: string | undefined) => (mustRefuse ? { mustRefuse } : {});
const kindOf = (kind: string) => FUZZ_KINDS.find((k) => k.kind === kind)!;

function post(
  target: string,
  auth: Record<string, string>,
  object: JsonObject,
  rng: Prng,
  what: string,
  mutated = true,
): FuzzRequest {
  const m = mutated ? mutate(rng, object, String(object.kind)) : { object };
  const body = rng.chance(0.15) ? yamlBody(rng, m) : jsonBody(rng, m);
  return {
    method: "POST",
    target,
    headers: { ...auth, "Content-Type": body.contentType },
    body: body.body,
    what,
    // Reviews, bindings and token requests are not stored: kube does not validate their
    // metadata, so only the body's encoding can make a refusal certain.
    ...ifSet(body.mustRefuse),
  };
}

export function subresourceRequest(rng: Prng, auth: Record<string, string>): FuzzRequest {
  const pods = kindOf("Pod");
  switch (rng.int(6)) {
    case 0: {
      const node = rng.pick(["fz-1", "5", "", "Bad_Node", "a/b", "x".repeat(300)]);
      const binding = {
        apiVersion: "v1",
        kind: "Binding",
        metadata: { name: "fz-1", namespace: "fuzz" },
        target: { apiVersion: "v1", kind: rng.pick(["Node", "Node", "Pod", ""]), name: node },
      };
      if (node !== "")
        return post(`${sentinelPath(pods)}/binding`, auth, binding, rng, "pods/binding");
      const r = post(`${sentinelPath(pods)}/binding`, auth, binding, rng, "pods/binding", false);
      return { ...r, mustRefuse: r.mustRefuse ?? "a Binding without a target" };
    }
    case 1: {
      const params = drawParams(rng, "log");
      return {
        method: "GET",
        target: `${sentinelPath(pods)}/log${query(params)}`,
        headers: auth,
        what: "pods/log",
        // The sentinel pod may be bound (by an earlier pods/binding) to a Node that
        // publishes no address: kube's GetConnectionInfo then fails with a plain
        // error, a 500 (pkg/registry/core/pod/strategy.go LogLocation).
        kube5xx: {
          status: 500,
          why: "a pod log on a node without an address",
          message: /no preferred addresses found/,
        },
        ...ifSet(firstRefusal(params)),
      };
    }
    case 2: {
      const seconds = rng.pick([3600, 10, -1, 0, 2 ** 40]);
      const request = {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: {
          audiences: rng.pick([["https://kubernetes.default.svc"], [], [""]]),
          expirationSeconds: seconds,
          ...(rng.chance(0.3)
            ? {
                boundObjectRef: {
                  kind: rng.pick(["Pod", "Secret", "Node", "ConfigMap"]),
                  apiVersion: "v1",
                  name: "fz-1",
                },
              }
            : {}),
        },
      };
      const path = `${sentinelPath(kindOf("ServiceAccount"))}/token`;
      if (seconds !== 10) return post(path, auth, request, rng, "serviceaccounts/token");
      const r = post(path, auth, request, rng, "serviceaccounts/token", false);
      return { ...r, mustRefuse: r.mustRefuse ?? "a token shorter than 10 minutes" };
    }
    case 3: {
      const ns = kindOf("Namespace");
      const [finalizers, name, refusal] = rng.pick([
        [[], "fz-ns-1", undefined],
        [["kubernetes"], "fz-ns-1", undefined],
        ["notalist", "fz-ns-1", "finalizers that are not a list"],
        [["Bad Fin!"], "fz-ns-1", "an invalid finalizer"],
        [[], "other", "a Namespace of another name"],
      ] as const);
      const object = {
        apiVersion: "v1",
        kind: "Namespace",
        metadata: { name },
        spec: { finalizers },
      };
      return {
        method: "PUT",
        target: `${sentinelPath(ns)}/finalize`,
        headers: { ...auth, "Content-Type": "application/json" },
        body: Buffer.from(JSON.stringify(object)),
        what: "namespaces/finalize",
        ...ifSet(refusal),
      };
    }
    case 4: {
      const widgets = kindOf("Widget");
      const replicas = rng.pick<unknown>([3, -1, "two", 2 ** 53, null, 11]);
      const scale = {
        apiVersion: "autoscaling/v1",
        kind: "Scale",
        metadata: { name: "fz-1", namespace: "fuzz" },
        spec: { replicas },
      };
      const method = rng.pick(["GET", "PUT", "PATCH"]);
      if (method === "GET")
        return {
          method,
          target: `${sentinelPath(widgets)}/scale`,
          headers: auth,
          what: "widgets/scale",
        };
      const refusal = replicas === -1 ? "negative replicas" : undefined;
      return {
        method,
        target: `${sentinelPath(widgets)}/scale`,
        headers: {
          ...auth,
          "Content-Type": method === "PUT" ? "application/json" : "application/merge-patch+json",
        },
        body: Buffer.from(JSON.stringify(method === "PUT" ? scale : { spec: { replicas } })),
        what: `widgets/scale ${method}`,
        ...ifSet(refusal),
      };
    }
    default: {
      const k = rng.pick(FUZZ_KINDS.filter((x) => x.subresources?.includes("status")));
      return {
        method: "GET",
        target: `${sentinelPath(k)}/status`,
        headers: auth,
        what: `${k.plural}/status`,
      };
    }
  }
}

export function reviewRequest(rng: Prng, auth: Record<string, string>): FuzzRequest {
  const r = rng.pick(REVIEW_KINDS);
  const ns = r.namespaced ? rng.pick(["fuzz", "fuzz", "nope", "Bad_NS"]) : undefined;
  const path = collectionPath(r, ns);
  const object = { apiVersion: `${r.group}/${r.version}`, kind: r.kind, ...r.valid(ns) };
  if (rng.chance(0.1))
    return {
      method: rng.pick(["GET", "DELETE", "PUT"]),
      target: path,
      headers: auth,
      what: `${r.kind} with the wrong verb`,
      mustRefuse: "reviews take only POST",
    };
  return post(path + query(drawParams(rng, "write", rng.int(2))), auth, object, rng, r.kind);
}

/** Paths with dot segments, encodings, empty segments and names no object can have. */
export function pathRequest(rng: Prng, k: FuzzKind, auth: Record<string, string>): FuzzRequest {
  const coll = collectionPath(k, k.namespaced ? (k.namespace ?? "fuzz") : undefined);
  const method = rng.pick(["GET", "GET", "DELETE", "PUT", "PATCH"]);
  const dot = rng.pick(["%2e", "%2e%2e", ".", "..", "%2E%2E", "%2e.", ".%2e"]);
  const [target, refuse] = rng.pick<[string, string | undefined]>([
    [`${coll}/${dot}`, "a name of . or .."],
    [`${coll}/${dot}/fz-1`, undefined],
    [`${coll}/fz-1/${dot}`, undefined],
    [`${coll}/fz-1/${dot}/${dot}`, undefined],
    [`${coll.replace("/fuzz/", `/${dot}/`)}/fz-1`, undefined],
    [`${coll}/a%2fb`, undefined],
    [`${coll}/%zz`, undefined],
    [`${coll}/%e0%a4`, undefined],
    [`${coll}/%`, undefined],
    [`${coll}/%00`, undefined],
    [coll.replace("/namespaces/", "//namespaces/"), undefined],
    [`/${coll}`, undefined],
    [`${coll}/`, undefined],
    [`${coll}//fz-1`, undefined],
    [`${coll}/fz-1/bogus-subresource`, undefined],
    [`${coll}/fz-1/status/extra`, undefined],
    [`${coll}/${"a".repeat(5000)}`, undefined],
    [`${coll}/fz-1?${"&".repeat(3000)}`, undefined],
    [coll.replace(/\/v1(alpha1)?\//, "/v9/"), undefined],
    [coll.replace(k.plural, `${k.plural}x`), undefined],
    [coll.replace(k.plural, k.plural.toUpperCase()), undefined],
    [`/apis/bogus.example.com/v1/namespaces/fuzz/things/x`, undefined],
    [`/api/v1/namespaces/fuzz/${k.plural}%2Ffz-1`, undefined],
    [`${coll}/fz-1#frag`, undefined],
    [`${coll}/fz-1;param`, undefined],
    [`${coll}/\u00e9`, undefined],
  ]);
  const writes = method !== "GET";
  const body = writes
    ? Buffer.from(JSON.stringify(k.valid("fz-1", k.namespaced ? "fuzz" : undefined)))
    : undefined;
  return {
    method,
    target: target.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c)),
    headers: body
      ? {
          ...auth,
          "Content-Type": method === "PATCH" ? "application/merge-patch+json" : "application/json",
        }
      : auth,
    ...(body ? { body } : {}),
    what: `odd path (${method})`,
    ...ifSet(writes ? refuse : undefined),
  };
}

const NON_RESOURCE = [
  "/",
  "/api",
  "/apis",
  "/api/v1",
  "/apis/batch/v1",
  "/apis/apps.cozystack.io/v1alpha1",
  "/apis/stable.example.com",
  "/openapi/v2",
  "/openapi/v3",
  "/openapi/v3/apis/batch/v1",
  "/openapi/v3/apis/apps.cozystack.io/v1alpha1",
  "/openapi/v3/%zz",
  "/version",
  "/healthz",
  "/healthz/%zz",
  "/livez?verbose",
  "/readyz?exclude=etcd&verbose=1",
  "/metrics",
  "/apis/apiregistration.k8s.io/v1",
  "/.well-known/openid-configuration",
  "/openid/v1/jwks",
  "/logs",
  "/debug/pprof/",
];

export function nonResourceRequest(rng: Prng, auth: Record<string, string>): FuzzRequest {
  const method = rng.pick(["GET", "GET", "GET", "HEAD", "OPTIONS", "POST", "DELETE", "PROPFIND"]);
  const accept = rng.pick([
    "application/json",
    "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
    "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
    "application/vnd.kubernetes.protobuf",
    "text/html",
    "*/*",
    "bogus/;;;",
  ]);
  return {
    method,
    target: rng.pick(NON_RESOURCE),
    headers: { ...auth, Accept: accept },
    what: `non-resource ${method}`,
  };
}

const RAW_HEAD = `Host: 127.0.0.1\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n`;

/** Bytes no HTTP client library would send: odd request lines, header names, framing. */
export function rawRequest(rng: Prng): FuzzRequest {
  const cm = "/api/v1/namespaces/fuzz/configmaps";
  const line = rng.pick([
    `GET //api/v1/namespaces HTTP/1.1\r\n${RAW_HEAD}\r\n`,
    `GET * HTTP/1.1\r\n${RAW_HEAD}\r\n`,
    `OPTIONS * HTTP/1.1\r\n${RAW_HEAD}\r\n`,
    `GET http://127.0.0.1${cm} HTTP/1.1\r\n${RAW_HEAD}\r\n`,
    `DELETE http://127.0.0.1${cm}/%2e%2e HTTP/1.1\r\n${RAW_HEAD}\r\n`,
    `GET ${cm} HTTP/9.9\r\n${RAW_HEAD}\r\n`,
    `get ${cm} HTTP/1.1\r\n${RAW_HEAD}\r\n`,
    `GET ${cm}\r\n\r\n`,
    `GET ${cm} HTTP/1.1\r\n${RAW_HEAD}Bad Header: x\r\n\r\n`,
    `GET ${cm} HTTP/1.1\r\n${RAW_HEAD}Impersonate-Extra-%zz: x\r\nImpersonate-User: fuzz-nobody\r\n\r\n`,
    `GET ${cm} HTTP/1.1\r\n${RAW_HEAD}Impersonate-User: \xff\xfe\r\n\r\n`,
    `GET ${cm} HTTP/1.1\r\n${RAW_HEAD}X-Folded: a\r\n b\r\n\r\n`,
    `GET ${cm} HTTP/1.1\r\n${RAW_HEAD}X-Big: ${"x".repeat(20_000)}\r\n\r\n`,
    `POST ${cm} HTTP/1.1\r\n${RAW_HEAD}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}`,
    `POST ${cm} HTTP/1.1\r\n${RAW_HEAD}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    `POST ${cm} HTTP/1.1\r\n${RAW_HEAD}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    `POST ${cm} HTTP/1.1\r\n${RAW_HEAD}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"apiVersion":"v1"`,
    `POST ${cm} HTTP/1.1\r\n${RAW_HEAD}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    `\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03`,
    `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n`,
  ]);
  return {
    method: "RAW",
    target: "",
    headers: {},
    raw: Buffer.from(line, "latin1"),
    what: "raw bytes",
  };
}
