/**
 * The fuzz generator: from a seed, an endless, reproducible sequence of bad or
 * odd requests across every verb, kind, subresource, parameter, path form,
 * header and body encoding. Each request is drawn by class (write, read,
 * delete, deletecollection, subresource, review, odd path, non-resource, raw
 * bytes), then given odd headers now and then: other identities (a user with no
 * rights, impersonation, bad tokens), Accept and Content-Type variants, junk.
 */
import { ADMIN_TOKEN, FUZZ_KINDS, NOBODY_TOKEN, NOBODY_USER } from "./catalogue.js";
import {
  nonResourceRequest,
  pathRequest,
  rawRequest,
  reviewRequest,
  subresourceRequest,
} from "./others.js";
import { Prng } from "./prng.js";
import { deleteCollectionRequest, deleteRequest, readRequest } from "./reads-deletes.js";
import type { FuzzRequest } from "./request.js";
import { writeRequest } from "./writes.js";

type Class =
  | "write"
  | "read"
  | "delete"
  | "deletecollection"
  | "subresource"
  | "review"
  | "path"
  | "nonresource"
  | "raw";

const CLASSES: [number, Class][] = [
  [34, "write"],
  [16, "read"],
  [10, "delete"],
  [5, "deletecollection"],
  [9, "subresource"],
  [6, "review"],
  [10, "path"],
  [5, "nonresource"],
  [2, "raw"],
];

/** A header value as its UTF-8 bytes on the wire (Node's client refuses characters above U+00FF). */
const wire = (s: string) => Buffer.from(s, "utf8").toString("latin1");

const ADMIN = { Authorization: `Bearer ${ADMIN_TOKEN}` };
/**
 * kube answers impersonated groups, extra or uid without a user with a 500
 * (filters/impersonation.go: buildImpersonationRequests' error goes to
 * responsewriters.InternalError). That filter runs before any handler, so
 * this 500 replaces whatever 5xx the request would have had.
 */
const IMPERSONATION_WITHOUT_USER = {
  status: 500,
  why: "impersonation of groups, extra or uid without a user",
  message: /without impersonating a user/,
};
const SELF_REVIEWS = /\/(selfsubjectaccessreviews|selfsubjectrulesreviews|selfsubjectreviews)/;

export class FuzzGenerator {
  readonly rng: Prng;
  private seq = 0;
  private readonly budget = { tooLargeRv: 1 };

  constructor(readonly seed: number) {
    this.rng = new Prng(seed);
  }

  next(): FuzzRequest {
    const rng = this.rng;
    this.seq++;
    const kind = rng.pick(FUZZ_KINDS);
    const c = rng.weighted(CLASSES);
    const base = ((): FuzzRequest => {
      switch (c) {
        case "write":
          return writeRequest(rng, kind, this.seq, ADMIN);
        case "read":
          return readRequest(rng, kind, ADMIN, this.budget);
        case "delete":
          return deleteRequest(rng, kind, ADMIN);
        case "deletecollection":
          return deleteCollectionRequest(rng, kind, ADMIN);
        case "subresource":
          return subresourceRequest(rng, ADMIN);
        case "review":
          return reviewRequest(rng, ADMIN);
        case "path":
          return pathRequest(rng, kind, ADMIN);
        case "nonresource":
          return nonResourceRequest(rng, ADMIN);
        case "raw":
          return rawRequest(rng);
      }
    })();
    return base.raw || !rng.chance(0.3) ? base : this.oddHeaders(base);
  }

  /** Other identities, media types and junk headers on a request. */
  private oddHeaders(r: FuzzRequest): FuzzRequest {
    const rng = this.rng;
    const headers = { ...r.headers };
    const resource = r.target.startsWith("/api/") || r.target.startsWith("/apis/");
    const writes = r.method !== "GET" && r.method !== "HEAD";
    const selfReview = SELF_REVIEWS.test(r.target);
    let mustRefuse = r.mustRefuse;
    let kube5xx = r.kube5xx;
    switch (rng.int(8)) {
      case 0:
        headers.Authorization = `Bearer ${NOBODY_TOKEN}`;
        if (resource && writes && !selfReview) mustRefuse ??= "a user without rights";
        break;
      case 1:
        headers.Authorization = rng.pick([
          "Bearer junk",
          "Bearer ",
          "Basic Zm9vOmJhcg==",
          `Bearer ${ADMIN_TOKEN}x`,
          `bearer ${"x".repeat(5000)}`,
        ]);
        if (resource) mustRefuse ??= "an invalid credential";
        break;
      case 2: {
        const user = rng.pick([
          NOBODY_USER,
          "system:serviceaccount:fuzz:fz-1",
          "system:anonymous",
          "",
          wire("😀"),
        ]);
        headers["Impersonate-User"] = user;
        let more = false;
        if (rng.chance(0.5)) {
          headers["Impersonate-Group"] = rng.pick(["system:masters", "fuzzers", ""]);
          more = true;
        }
        if (rng.chance(0.3)) {
          const extra = rng.pick(["scopes", "%41b", "%zz", "", "a%2Fb"]);
          headers[`Impersonate-Extra-${extra}`] = rng.pick(["view", "%zz", "%F0%9F%98%80"]);
          more = true;
        }
        if (rng.chance(0.2)) {
          headers["Impersonate-Uid"] = rng.pick(["1234", ""]);
          more = true;
        }
        // Groups are impersonated too: with system:masters among them the user may do anything.
        if (
          user === NOBODY_USER &&
          !headers["Impersonate-Group"] &&
          resource &&
          writes &&
          !selfReview
        )
          mustRefuse ??= "a user without rights (impersonated)";
        // An empty Impersonate-User is no user: with groups, extra or uid kube answers 500.
        if (user === "" && more) kube5xx = IMPERSONATION_WITHOUT_USER;
        break;
      }
      case 3:
        // kube answers groups, extra or uid without a user with a 500 (buildImpersonationRequests).
        headers["Impersonate-Group"] = "fuzzers";
        kube5xx = IMPERSONATION_WITHOUT_USER;
        break;
      case 4:
        headers.Accept = rng.pick([
          "application/json;as=Table;v=v1;g=meta.k8s.io",
          "application/json;as=Table;v=v1beta1;g=meta.k8s.io",
          "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
          "application/json;as=Bogus;v=v9;g=x",
          "application/vnd.kubernetes.protobuf",
          "application/yaml",
          "application/json;stream=watch",
          "text/html",
          "*/*;q=0",
          ";;;",
          "x".repeat(10_000),
        ]);
        break;
      case 5:
        headers["Content-Type"] = rng.pick([
          "application/json; charset=latin1",
          "application/json;;",
          "",
          "APPLICATION/JSON",
          "application/merge-patch+json; x=y",
          "a".repeat(3000),
        ]);
        break;
      case 6:
        headers[
          rng.pick([
            "X-Junk",
            "X-Remote-User",
            "X-Forwarded-For",
            "Accept-Encoding",
            "Expect",
            "Content-Encoding",
          ])
        ] = rng.pick(["admin", "gzip", "100-continue", "x".repeat(8000), "%zz"]);
        break;
      default:
        headers["User-Agent"] = rng.pick([
          "",
          "kubectl/v1.32.4 (linux/amd64)",
          wire("été"),
          "x".repeat(4000),
        ]);
        headers["Audit-ID"] = rng.pick(["", "../../x", "x".repeat(500)]);
    }
    return {
      ...r,
      headers,
      what: `${r.what} +odd headers`,
      ...(mustRefuse ? { mustRefuse } : {}),
      ...(kube5xx ? { kube5xx } : {}),
    };
  }
}
