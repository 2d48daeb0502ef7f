/**
 * What kubectl reads of each built-in kind, through the in-process apiserver:
 * discovery (short names, categories, scope, subresources and their verbs, in
 * both the legacy and the aggregated v2 documents, compared with what
 * kube-apiserver serves), `kubectl get` as a server-side Table (list and watch,
 * includeObject, paging metadata), and field selectors per kind.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Env } from "../../../test/support/envtest.js";
import { type RawApi, startRawEnv } from "../../../test/support/raw-http.js";
import type { KubeList } from "../../api/index.js";

const NS = "served";
let env: Env;
let api: RawApi;

before(async () => {
  ({ env, api } = await startRawEnv(NS));
});
after(async () => {
  await env.stop();
});

const TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
const AGGREGATED = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

async function getWith(
  path: string,
  accept: string,
): Promise<{ status: number; body: Record<string, unknown>; type: string }> {
  const res = await fetch(env.url + path, { headers: { accept } });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    type: res.headers.get("content-type") ?? "",
  };
}

interface Served {
  gv: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Subresource → verbs. */
  subresources?: Record<string, string[]>;
}

const RW = ["get", "patch", "update"];
/** kube-apiserver's discovery for these kinds (v1.31). */
const SERVED: Served[] = [
  {
    gv: "v1",
    plural: "pods",
    namespaced: true,
    shortNames: ["po"],
    categories: ["all"],
    subresources: {
      status: RW,
      log: ["get"],
      binding: ["create"],
      eviction: ["create"],
      exec: ["create", "get"],
      attach: ["create", "get"],
      portforward: ["create", "get"],
    },
  },
  {
    gv: "v1",
    plural: "namespaces",
    namespaced: false,
    shortNames: ["ns"],
    subresources: { status: RW, finalize: ["update"] },
  },
  {
    gv: "v1",
    plural: "nodes",
    namespaced: false,
    shortNames: ["no"],
    subresources: { status: RW, proxy: ["create", "delete", "get", "patch", "update"] },
  },
  { gv: "v1", plural: "configmaps", namespaced: true, shortNames: ["cm"] },
  { gv: "v1", plural: "secrets", namespaced: true },
  {
    gv: "v1",
    plural: "serviceaccounts",
    namespaced: true,
    shortNames: ["sa"],
    subresources: { token: ["create"] },
  },
  { gv: "v1", plural: "events", namespaced: true, shortNames: ["ev"] },
  {
    gv: "v1",
    plural: "services",
    namespaced: true,
    shortNames: ["svc"],
    categories: ["all"],
    subresources: { status: RW },
  },
  { gv: "v1", plural: "endpoints", namespaced: true, shortNames: ["ep"] },
  {
    gv: "v1",
    plural: "persistentvolumes",
    namespaced: false,
    shortNames: ["pv"],
    subresources: { status: RW },
  },
  {
    gv: "v1",
    plural: "persistentvolumeclaims",
    namespaced: true,
    shortNames: ["pvc"],
    subresources: { status: RW },
  },
  {
    gv: "v1",
    plural: "resourcequotas",
    namespaced: true,
    shortNames: ["quota"],
    subresources: { status: RW },
  },
  { gv: "v1", plural: "limitranges", namespaced: true, shortNames: ["limits"] },
  {
    gv: "batch/v1",
    plural: "jobs",
    namespaced: true,
    categories: ["all"],
    subresources: { status: RW },
  },
  {
    gv: "batch/v1",
    plural: "cronjobs",
    namespaced: true,
    shortNames: ["cj"],
    categories: ["all"],
    subresources: { status: RW },
  },
  { gv: "storage.k8s.io/v1", plural: "storageclasses", namespaced: false, shortNames: ["sc"] },
  { gv: "coordination.k8s.io/v1", plural: "leases", namespaced: true },
  {
    gv: "policy/v1",
    plural: "poddisruptionbudgets",
    namespaced: true,
    shortNames: ["pdb"],
    subresources: { status: RW },
  },
  { gv: "events.k8s.io/v1", plural: "events", namespaced: true, shortNames: ["ev"] },
  { gv: "discovery.k8s.io/v1", plural: "endpointslices", namespaced: true },
  {
    gv: "apiextensions.k8s.io/v1",
    plural: "customresourcedefinitions",
    namespaced: false,
    shortNames: ["crd", "crds"],
    categories: ["api-extensions"],
    subresources: { status: RW },
  },
  { gv: "rbac.authorization.k8s.io/v1", plural: "clusterroles", namespaced: false },
  { gv: "rbac.authorization.k8s.io/v1", plural: "rolebindings", namespaced: true },
];

const gvPath = (gv: string) => (gv === "v1" ? "/api/v1" : `/apis/${gv}`);

describe("discovery per kind", () => {
  interface ApiResource {
    name: string;
    namespaced: boolean;
    verbs: string[];
    shortNames?: string[];
    categories?: string[];
  }
  const lists = new Map<string, ApiResource[]>();
  const resourcesOf = async (gv: string) => {
    if (!lists.has(gv))
      lists.set(gv, (await api.ok<{ resources: ApiResource[] }>("GET", gvPath(gv))).resources);
    return lists.get(gv)!;
  };

  for (const s of SERVED)
    it(`${s.gv} ${s.plural}: short names, categories, scope and subresources`, async () => {
      const resources = await resourcesOf(s.gv);
      const main = resources.find((r) => r.name === s.plural);
      assert.ok(main, `${s.plural} not in ${gvPath(s.gv)}`);
      assert.deepEqual(main.shortNames, s.shortNames);
      assert.deepEqual(main.categories, s.categories);
      assert.equal(main.namespaced, s.namespaced);
      const subs = Object.fromEntries(
        resources
          .filter((r) => r.name.startsWith(`${s.plural}/`))
          .map((r) => [r.name.slice(s.plural.length + 1), [...r.verbs].sort()]),
      );
      const want = Object.fromEntries(
        Object.entries(s.subresources ?? {}).map(([k, v]) => [k, [...v].sort()]),
      );
      assert.deepEqual(subs, want);
    });

  it("names pods/eviction's kind with its group, as kubectl drain's CheckEvictionSupport needs", async () => {
    const eviction = (await resourcesOf("v1")).find((r) => r.name === "pods/eviction") as
      | (ApiResource & { group?: string; version?: string; kind?: string })
      | undefined;
    assert.deepEqual(
      { group: eviction?.group, version: eviction?.version, kind: eviction?.kind },
      { group: "policy", version: "v1", kind: "Eviction" },
    );
    const binding = (await resourcesOf("v1")).find((r) => r.name === "pods/binding") as
      | (ApiResource & { group?: string })
      | undefined;
    assert.equal(binding?.group, undefined, "a core kind names no group");
  });

  it("answers the same names in aggregated discovery v2, which kubectl asks for first", async () => {
    const [core, groups] = await Promise.all([
      getWith("/api", AGGREGATED),
      getWith("/apis", AGGREGATED),
    ]);
    assert.equal(core.type, AGGREGATED);
    interface V2Resource {
      resource: string;
      scope: string;
      shortNames?: string[];
      categories?: string[];
      subresources?: { subresource: string; verbs: string[] }[];
    }
    const byGv = new Map<string, V2Resource[]>();
    for (const doc of [core.body, groups.body])
      for (const g of doc.items as {
        metadata: { name?: string };
        versions: { version: string; resources: V2Resource[] }[];
      }[])
        for (const v of g.versions)
          byGv.set(g.metadata.name ? `${g.metadata.name}/${v.version}` : v.version, v.resources);
    for (const s of SERVED) {
      const r = byGv.get(s.gv)?.find((x) => x.resource === s.plural);
      assert.ok(r, `${s.gv} ${s.plural} missing in aggregated discovery`);
      assert.deepEqual(r.shortNames, s.shortNames, s.plural);
      assert.deepEqual(r.categories, s.categories, s.plural);
      assert.equal(r.scope, s.namespaced ? "Namespaced" : "Cluster", s.plural);
      assert.deepEqual(
        (r.subresources ?? []).map((x) => x.subresource).sort(),
        Object.keys(s.subresources ?? {}).sort(),
        s.plural,
      );
    }
  });

  it("puts exactly kube's kinds in the `all` category among built-in kinds", async () => {
    const all: string[] = [];
    for (const gv of ["v1", "batch/v1", "apps/v1"]) {
      const reply = await api.call("GET", gvPath(gv));
      if (reply.status !== 200) continue;
      for (const r of (reply.body as { resources: ApiResource[] }).resources)
        if (r.categories?.includes("all")) all.push(r.name);
    }
    assert.deepEqual(all.sort(), [
      "cronjobs",
      "daemonsets",
      "deployments",
      "jobs",
      "pods",
      "replicasets",
      "services",
      "statefulsets",
    ]);
  });
});

describe("kubectl get as a Table", () => {
  const CMS = `/api/v1/namespaces/${NS}/configmaps`;
  before(async () => {
    for (const name of ["t1", "t2", "t3"])
      await api.ok("POST", CMS, {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name, labels: { set: "t" } },
        data: { a: "1" },
      });
  });

  it("lists a kind's columns and rows, with PartialObjectMetadata by default", async () => {
    const { status, body } = await getWith(`${CMS}?labelSelector=set%3Dt`, TABLE);
    assert.equal(status, 200);
    assert.equal(body.kind, "Table");
    assert.deepEqual(
      (body.columnDefinitions as { name: string }[]).map((c) => c.name),
      ["Name", "Data", "Age"],
    );
    const rows = body.rows as {
      cells: unknown[];
      object: { kind: string; metadata: { name: string } };
    }[];
    assert.deepEqual(
      rows.map((r) => r.cells.slice(0, 2)),
      [
        ["t1", 1],
        ["t2", 1],
        ["t3", 1],
      ],
    );
    assert.equal(rows[0]!.object.kind, "PartialObjectMetadata");
    assert.ok((body.metadata as { resourceVersion?: string }).resourceVersion);
  });

  it("carries the whole object with includeObject=Object and none with None", async () => {
    const whole = await getWith(`${CMS}?labelSelector=set%3Dt&includeObject=Object`, TABLE);
    const row = (whole.body.rows as { object: { kind: string; data: object } }[])[0]!;
    assert.equal(row.object.kind, "ConfigMap");
    assert.deepEqual(row.object.data, { a: "1" });
    const none = await getWith(`${CMS}?labelSelector=set%3Dt&includeObject=None`, TABLE);
    assert.equal("object" in (none.body.rows as object[])[0]!, false);
  });

  it("pages a Table with continue, and remainingItemCount when nothing is filtered", async () => {
    const total = (await api.ok<KubeList>("GET", CMS)).items.length;
    const plain = await getWith(`${CMS}?limit=2`, TABLE);
    assert.equal(
      (plain.body.metadata as { remainingItemCount?: number }).remainingItemCount,
      total - 2,
    );
    const first = await getWith(`${CMS}?labelSelector=set%3Dt&limit=2`, TABLE);
    const meta = first.body.metadata as { continue?: string; remainingItemCount?: number };
    assert.equal((first.body.rows as object[]).length, 2);
    assert.ok(meta.continue);
    assert.equal(meta.remainingItemCount, undefined, "kube does not count what a selector leaves");
    const next = await getWith(
      `${CMS}?labelSelector=set%3Dt&limit=2&continue=${encodeURIComponent(meta.continue)}`,
      TABLE,
    );
    assert.deepEqual(
      (next.body.rows as { cells: unknown[] }[]).map((r) => r.cells[0]),
      ["t3"],
    );
  });

  it("renders GET of one object as a one-row Table", async () => {
    const { body } = await getWith(`${CMS}/t2`, TABLE);
    assert.equal(body.kind, "Table");
    assert.deepEqual(
      (body.rows as { cells: unknown[] }[]).map((r) => r.cells[0]),
      ["t2"],
    );
  });

  it("sends the column definitions in the first watch event only", async () => {
    const stop = new AbortController();
    const res = await fetch(`${env.url}${CMS}?watch=1&labelSelector=set%3Dt`, {
      headers: { accept: TABLE },
      signal: stop.signal,
    });
    const events: {
      type: string;
      object: { kind: string; columnDefinitions: unknown[]; rows: { cells: unknown[] }[] };
    }[] = [];
    let buffered = "";
    try {
      for await (const chunk of res.body!) {
        buffered += Buffer.from(chunk as Uint8Array).toString();
        const lines = buffered.split("\n");
        buffered = lines.pop()!;
        for (const l of lines) if (l.trim()) events.push(JSON.parse(l));
        if (events.length >= 3) break;
      }
    } finally {
      stop.abort();
    }
    assert.deepEqual(
      events.map((e) => [e.type, e.object.kind]),
      [
        ["ADDED", "Table"],
        ["ADDED", "Table"],
        ["ADDED", "Table"],
      ],
    );
    assert.equal(events[0]!.object.columnDefinitions.length, 3);
    assert.deepEqual(events[1]!.object.columnDefinitions, []);
    assert.deepEqual(events.map((e) => e.object.rows[0]!.cells[0]).sort(), ["t1", "t2", "t3"]);
  });

  it("refuses an Accept it cannot serve with a 406", async () => {
    const res = await fetch(env.url + CMS, { headers: { accept: "application/yaml" } });
    assert.equal(res.status, 406);
    assert.match(await res.text(), /only the following media types are accepted/);
  });
});

describe("field selectors per kind", () => {
  before(async () => {
    const post = (path: string, body: object) => api.ok("POST", path, body);
    const ns = `/api/v1/namespaces/${NS}`;
    await post(`${ns}/secrets`, {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s-opaque" },
    });
    await post(`${ns}/secrets`, {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s-tls" },
      type: "kubernetes.io/tls",
      data: { "tls.crt": "", "tls.key": "" },
    });
    for (const [name, unschedulable] of [
      ["n-open", false],
      ["n-cordoned", true],
    ] as const)
      await post("/api/v1/nodes", {
        apiVersion: "v1",
        kind: "Node",
        metadata: { name },
        spec: { unschedulable },
      });
    await post(`${ns}/services`, {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "svc-ip" },
      spec: { type: "ClusterIP", ports: [{ port: 80 }] },
    });
    await post(`${ns}/services`, {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "svc-headless" },
      spec: { clusterIP: "None", ports: [{ port: 80 }] },
    });
    await post(`${ns}/events`, {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name: "ev-1" },
      reason: "Pulled",
      type: "Normal",
      involvedObject: { kind: "Pod", name: "web-0", namespace: NS },
    });
    await post(`${ns}/pods`, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: { name: "p-sa" },
      spec: {
        serviceAccountName: "builder",
        restartPolicy: "OnFailure",
        containers: [{ name: "c", image: "x" }],
      },
    });
  });

  const names = (l: KubeList) => l.items.map((o) => o.metadata.name).sort();
  const ns = `/api/v1/namespaces/${NS}`;
  const cases: [path: string, selector: string, want: string[]][] = [
    [`${ns}/secrets`, "type=kubernetes.io/tls", ["s-tls"]],
    [`${ns}/secrets`, "type!=kubernetes.io/tls", ["s-opaque"]],
    ["/api/v1/nodes", "spec.unschedulable=true", ["n-cordoned"]],
    ["/api/v1/nodes", "spec.unschedulable=false,metadata.name!=nope", ["n-open"]],
    [`${ns}/services`, "spec.type=ClusterIP", ["svc-headless", "svc-ip"]],
    [`${ns}/services`, "spec.type=NodePort", []],
    [`${ns}/services`, "spec.clusterIP=None", ["svc-headless"]],
    [`${ns}/events`, "involvedObject.name=web-0,reason=Pulled", ["ev-1"]],
    [`/apis/events.k8s.io/v1/namespaces/${NS}/events`, "regarding.name=web-0", ["ev-1"]],
    [`/apis/events.k8s.io/v1/namespaces/${NS}/events`, "regarding.kind=Node", []],
    [`${ns}/pods`, "spec.serviceAccountName=builder", ["p-sa"]],
    [`${ns}/pods`, "spec.restartPolicy=Always", []],
    [`${ns}/pods`, "status.phase=Pending,spec.schedulerName=default-scheduler", ["p-sa"]],
    ["/api/v1/namespaces", `status.phase=Active,metadata.name=${NS}`, [NS]],
    ["/apis/batch/v1/jobs", "status.successful=0", []],
  ];
  for (const [path, selector, want] of cases)
    it(`${path} ?fieldSelector=${selector} → ${JSON.stringify(want)}`, async () => {
      const list = await api.ok<KubeList>(
        "GET",
        `${path}?fieldSelector=${encodeURIComponent(selector)}`,
      );
      assert.deepEqual(names(list), want);
    });

  const refused: [path: string, selector: string][] = [
    [`${ns}/secrets`, "data.x=1"],
    ["/api/v1/nodes", "status.phase=Ready"],
    [`${ns}/services`, "spec.ports=80"],
    [`/apis/events.k8s.io/v1/namespaces/${NS}/events`, "involvedObject.name=web-0"],
    ["/apis/batch/v1/cronjobs", "status.successful=0"],
  ];
  for (const [path, selector] of refused)
    it(`refuses ${path} ?fieldSelector=${selector} (not a field label of the kind)`, async () => {
      const reply = await api.call("GET", `${path}?fieldSelector=${encodeURIComponent(selector)}`);
      assert.equal(reply.status, 400);
      assert.equal(
        (reply.body as { message: string }).message,
        `field label not supported: ${selector.split(/!?=/)[0]}`,
      );
    });
});

describe("the scale subresource of the apps/v1 workloads", () => {
  const template = {
    metadata: { labels: { app: "w", tier: "x" } },
    spec: { containers: [{ name: "c", image: "busybox" }] },
  };
  const selector = { matchLabels: { app: "w", tier: "x" } };
  for (const [plural, kind, extra] of [
    ["deployments", "Deployment", {}],
    ["replicasets", "ReplicaSet", {}],
    ["statefulsets", "StatefulSet", { serviceName: "w" }],
  ] as const)
    it(`answers an autoscaling/v1 Scale of ${plural} with the selector an autoscaler reads`, async () => {
      const path = `/apis/apps/v1/namespaces/${NS}/${plural}`;
      await api.ok("POST", path, {
        apiVersion: "apps/v1",
        kind,
        metadata: { name: `scaled-${plural}` },
        spec: { replicas: 2, selector, template, ...extra },
      });
      const scale = (await api.ok("GET", `${path}/scaled-${plural}/scale`)) as {
        kind: string;
        spec: { replicas: number };
        status: { selector?: string };
      };
      assert.equal(scale.kind, "Scale");
      assert.equal(scale.spec.replicas, 2);
      assert.equal(scale.status.selector, "app=w,tier=x");
    });
});
