/**
 * The kind hooks the generic store calls, as pure functions: the field labels
 * each built-in kind answers in field selectors (and their values), the
 * defaults set on create and update (Pod, Job, CronJob, Namespace, Secret,
 * storage), a pod's QoS class and graceful-deletion period, and the registry's
 * lookups as custom kinds come and go.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject, Pod } from "../../api/index.js";
import { fieldsOf } from "../handlers/filter.js";
import { builtinTypes } from "./builtin.js";
import { qosClass } from "./pod-defaults.js";
import { podGracePeriod } from "./pod-type.js";
import { ResourceRegistry } from "./registry.js";
import { builtinType, type ResourceType } from "./resource-type.js";

const TYPES = builtinTypes();
const typeOf = (kind: string, group = ""): ResourceType => {
  const t = TYPES.find((x) => x.kind === kind && x.group === group);
  assert.ok(t, `no kind ${group}/${kind}`);
  return t;
};
const blank = (kind: string, extra: object = {}): KubeObject =>
  ({ apiVersion: "v1", kind, metadata: { name: "x", namespace: "ns" }, ...extra }) as KubeObject;

const META = ["metadata.name", "metadata.namespace"];
const EVENT_REF = [
  "kind",
  "namespace",
  "name",
  "uid",
  "apiVersion",
  "resourceVersion",
  "fieldPath",
];

describe("field labels per kind", () => {
  const labels: [kind: string, group: string, fields: string[]][] = [
    ["ConfigMap", "", META],
    ["Namespace", "", ["metadata.name", "status.phase"]],
    ["Node", "", ["metadata.name", "spec.unschedulable"]],
    [
      "Pod",
      "",
      [
        ...META,
        "spec.nodeName",
        "spec.restartPolicy",
        "spec.schedulerName",
        "spec.serviceAccountName",
        "status.phase",
        "status.podIP",
        "status.nominatedNodeName",
      ],
    ],
    ["Secret", "", [...META, "type"]],
    ["Service", "", [...META, "spec.clusterIP", "spec.type"]],
    ["Job", "batch", [...META, "status.successful"]],
    ["Event", "", [...META, "reason", "type", ...EVENT_REF.map((k) => `involvedObject.${k}`)]],
    [
      "Event",
      "events.k8s.io",
      [...META, "reason", "type", "reportingController", ...EVENT_REF.map((k) => `regarding.${k}`)],
    ],
  ];
  for (const [kind, group, fields] of labels)
    it(`${group || "core"}/${kind}: ${fields.length} labels`, () => {
      assert.deepEqual(
        Object.keys(fieldsOf(typeOf(kind, group), blank(kind))).sort(),
        [...fields].sort(),
      );
    });

  const values: [kind: string, group: string, obj: KubeObject, want: Record<string, string>][] = [
    [
      "Pod",
      "",
      blank("Pod", {
        spec: {
          nodeName: "n1",
          restartPolicy: "Never",
          schedulerName: "s",
          serviceAccountName: "sa",
        },
        status: { phase: "Running", podIP: "10.0.0.4", nominatedNodeName: "n2" },
      }),
      {
        "spec.nodeName": "n1",
        "spec.restartPolicy": "Never",
        "spec.schedulerName": "s",
        "spec.serviceAccountName": "sa",
        "status.phase": "Running",
        "status.podIP": "10.0.0.4",
        "status.nominatedNodeName": "n2",
      },
    ],
    ["Pod", "", blank("Pod"), { "spec.nodeName": "", "status.phase": "" }],
    ["Node", "", blank("Node"), { "spec.unschedulable": "false" }],
    [
      "Node",
      "",
      blank("Node", { spec: { unschedulable: true } }),
      { "spec.unschedulable": "true" },
    ],
    ["Job", "batch", blank("Job"), { "status.successful": "0" }],
    ["Job", "batch", blank("Job", { status: { succeeded: 3 } }), { "status.successful": "3" }],
    ["Secret", "", blank("Secret", { type: "kubernetes.io/tls" }), { type: "kubernetes.io/tls" }],
    [
      "Service",
      "",
      blank("Service", { spec: { type: "NodePort", clusterIP: "None" } }),
      { "spec.type": "NodePort", "spec.clusterIP": "None" },
    ],
    [
      "Event",
      "",
      blank("Event", { reason: "Pulled", involvedObject: { kind: "Pod", name: "web", uid: "u1" } }),
      {
        reason: "Pulled",
        "involvedObject.kind": "Pod",
        "involvedObject.name": "web",
        "involvedObject.uid": "u1",
        "involvedObject.fieldPath": "",
      },
    ],
    [
      "Namespace",
      "",
      blank("Namespace", { status: { phase: "Terminating" } }),
      { "status.phase": "Terminating", "metadata.name": "x" },
    ],
  ];
  for (const [kind, group, obj, want] of values)
    it(`${kind} values: ${JSON.stringify(want)}`, () => {
      const got = fieldsOf(typeOf(kind, group), obj);
      for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, k);
    });
});

describe("defaults on create", () => {
  const create = (kind: string, group: string, obj: KubeObject): KubeObject => {
    typeOf(kind, group).prepareForCreate?.(obj);
    return obj;
  };

  it("a Pod gets kube's spec defaults, container defaults and a Pending status with its QoS", () => {
    const pod = create(
      "Pod",
      "",
      blank("Pod", {
        spec: {
          serviceAccount: "legacy",
          initContainers: [{ name: "i", image: "busybox" }],
          containers: [
            {
              name: "c",
              image: "registry:5000/app:1.2",
              ports: [{ containerPort: 80 }, { containerPort: 53, protocol: "UDP" }],
              readinessProbe: { httpGet: { port: 80 } },
              livenessProbe: { exec: { command: ["true"] }, periodSeconds: 3 },
            },
            { name: "d", image: "nginx:latest", imagePullPolicy: "Never" },
            { name: "e", image: `nginx@sha256:${"a".repeat(64)}` },
            { name: "f", image: `nginx:latest@sha256:${"a".repeat(64)}` },
          ],
        },
      }),
    ) as Pod;
    const spec = pod.spec;
    assert.equal(spec.restartPolicy, "Always");
    assert.equal(spec.terminationGracePeriodSeconds, 30);
    assert.equal(spec.schedulerName, "default-scheduler");
    assert.equal(spec.dnsPolicy, "ClusterFirst");
    assert.equal(spec.enableServiceLinks, true);
    assert.equal(spec.serviceAccountName, "legacy", "serviceAccount fills serviceAccountName");
    const [c, d, e, f] = spec.containers;
    assert.equal(spec.initContainers![0]!.imagePullPolicy, "Always", "no tag pulls Always");
    assert.equal(c!.imagePullPolicy, "IfNotPresent", "a tag after a registry port");
    assert.equal(d!.imagePullPolicy, "Never", "a set policy is kept");
    assert.equal(e!.imagePullPolicy, "IfNotPresent", "a digest without a tag is pinned");
    assert.equal(f!.imagePullPolicy, "Always", "the tag before a digest counts: latest");
    assert.deepEqual(
      c!.ports!.map((p) => p.protocol),
      ["TCP", "UDP"],
    );
    assert.deepEqual(c!.readinessProbe, {
      httpGet: { port: 80, path: "/", scheme: "HTTP" },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.equal(c!.livenessProbe!.periodSeconds, 3);
    assert.deepEqual(pod.status, { phase: "Pending", qosClass: "BestEffort" });
  });

  it("a Pod without a spec is left for validation to refuse", () => {
    const pod = create("Pod", "", blank("Pod"));
    assert.equal(pod.spec, undefined);
    assert.equal(pod.status, undefined);
  });

  it("a Job gets one completion, kube's defaults, and a selector by its uid", () => {
    const job = create("Job", "batch", {
      ...blank("Job"),
      metadata: { name: "j", namespace: "ns", uid: "uid-1" },
      spec: {
        template: {
          metadata: { labels: { app: "a" } },
          spec: { containers: [{ name: "c", image: "x" }] },
        },
      },
    } as KubeObject);
    const spec = job.spec as Record<string, unknown> & {
      template: { metadata: { labels: Record<string, string> }; spec: Pod["spec"] };
    };
    assert.equal(spec.completions, 1);
    assert.equal(spec.parallelism, 1);
    assert.equal(spec.backoffLimit, 6);
    assert.equal(spec.completionMode, "NonIndexed");
    assert.equal(spec.suspend, false);
    assert.equal(spec.podReplacementPolicy, "TerminatingOrFailed");
    assert.deepEqual(spec.selector, {
      matchLabels: { "batch.kubernetes.io/controller-uid": "uid-1" },
    });
    assert.deepEqual(spec.template.metadata.labels, {
      app: "a",
      "job-name": "j",
      "batch.kubernetes.io/job-name": "j",
      "controller-uid": "uid-1",
      "batch.kubernetes.io/controller-uid": "uid-1",
    });
    assert.deepEqual(
      job.metadata.labels,
      spec.template.metadata.labels,
      "a Job without labels takes its template's",
    );
    assert.equal(spec.template.spec.restartPolicy, "Always", "the template gets pod defaults");
  });

  it("a Job with parallelism only keeps completions unset; a podFailurePolicy replaces only Failed pods", () => {
    const job = create("Job", "batch", {
      ...blank("Job"),
      metadata: { name: "j", namespace: "ns", uid: "u", labels: { own: "yes" } },
      spec: { parallelism: 3, podFailurePolicy: { rules: [] }, template: {} },
    } as KubeObject);
    const spec = job.spec as Record<string, unknown>;
    assert.equal(spec.completions, undefined);
    assert.equal(spec.parallelism, 3);
    assert.equal(spec.podReplacementPolicy, "Failed");
    assert.deepEqual(job.metadata.labels, { own: "yes" }, "own labels are kept");
  });

  it("a Job with a manual selector gets no generated labels", () => {
    const selector = { matchLabels: { mine: "1" } };
    const job = create("Job", "batch", {
      ...blank("Job"),
      metadata: { name: "j", namespace: "ns", uid: "u" },
      spec: { manualSelector: true, selector, template: { metadata: { labels: { mine: "1" } } } },
    } as KubeObject);
    const spec = job.spec as { selector: unknown; template: { metadata: { labels: object } } };
    assert.deepEqual(spec.selector, selector);
    assert.deepEqual(spec.template.metadata.labels, { mine: "1" });
  });

  it("a CronJob gets its policy and history defaults and pod defaults in its job template", () => {
    const cj = create(
      "CronJob",
      "batch",
      blank("CronJob", {
        spec: {
          schedule: "@hourly",
          jobTemplate: { spec: { template: { spec: { containers: [] } } } },
        },
      }),
    );
    const spec = cj.spec as Record<string, unknown> & {
      jobTemplate: { spec: { template: { spec: Pod["spec"] } } };
    };
    assert.equal(spec.concurrencyPolicy, "Allow");
    assert.equal(spec.suspend, false);
    assert.equal(spec.successfulJobsHistoryLimit, 3);
    assert.equal(spec.failedJobsHistoryLimit, 1);
    assert.equal(spec.jobTemplate.spec.template.spec.dnsPolicy, "ClusterFirst");
  });

  it("a Namespace is Active, carries the kubernetes finalizer once, and its own name label", () => {
    const ns = create(
      "Namespace",
      "",
      blank("Namespace", { spec: { finalizers: ["x", "kubernetes"] } }),
    );
    assert.deepEqual(ns.spec, { finalizers: ["x", "kubernetes"] });
    assert.deepEqual(ns.status, { phase: "Active" });
    assert.equal(ns.metadata.labels?.["kubernetes.io/metadata.name"], "x");
    const bare = create("Namespace", "", blank("Namespace", { spec: "not an object" }));
    assert.deepEqual(bare.spec, { finalizers: ["kubernetes"] });
  });

  it("a Secret is Opaque by default and stringData lands base64-encoded in data", () => {
    const s = create(
      "Secret",
      "",
      blank("Secret", { data: { a: "YQ==" }, stringData: { b: "héllo", a: "z" } }),
    );
    assert.equal(s.type, "Opaque");
    assert.deepEqual(s.data, {
      a: Buffer.from("z").toString("base64"),
      b: Buffer.from("héllo").toString("base64"),
    });
    assert.equal(s.stringData, undefined);
  });

  it("storage kinds get their policies, modes, phases and protection finalizers", () => {
    const sc = create("StorageClass", "storage.k8s.io", blank("StorageClass"));
    assert.equal(sc.reclaimPolicy, "Delete");
    assert.equal(sc.volumeBindingMode, "Immediate");
    const pv = create(
      "PersistentVolume",
      "",
      blank("PersistentVolume", { spec: { capacity: { storage: 5 } } }),
    );
    assert.deepEqual(pv.spec, {
      capacity: { storage: "5" },
      persistentVolumeReclaimPolicy: "Retain",
      volumeMode: "Filesystem",
    });
    assert.equal((pv.status as { phase: string }).phase, "Pending");
    assert.deepEqual(pv.metadata.finalizers, ["kubernetes.io/pv-protection"]);
    const pvc = create(
      "PersistentVolumeClaim",
      "",
      blank("PersistentVolumeClaim", {
        metadata: { name: "c", finalizers: ["kubernetes.io/pvc-protection"] },
      }),
    );
    assert.deepEqual(pvc.status, { phase: "Pending" });
    assert.deepEqual(pvc.metadata.finalizers, ["kubernetes.io/pvc-protection"], "not added twice");
  });

  it("storage kinds refuse a malformed quantity with a 400 naming the kind", () => {
    const bad = blank("PersistentVolumeClaim", {
      spec: { resources: { requests: { storage: "lots" } } },
    });
    assert.throws(
      () => typeOf("PersistentVolumeClaim").prepareForCreate!(bad),
      (e: Error & { code?: number }) => {
        assert.match(
          e.message,
          /^PersistentVolumeClaim in version "v1" cannot be handled as a PersistentVolumeClaim: quantities must match/,
        );
        return true;
      },
    );
  });
});

describe("defaults on update", () => {
  it("a Namespace keeps its stored spec.finalizers on a plain update", () => {
    const t = typeOf("Namespace");
    const old = blank("Namespace", { spec: { finalizers: ["kubernetes"] } });
    const obj = blank("Namespace", { spec: { finalizers: [] } });
    t.prepareForUpdate!(obj, old);
    assert.deepEqual(obj.spec, { finalizers: ["kubernetes"] });
    const none = blank("Namespace", { spec: { finalizers: ["a"] } });
    t.prepareForUpdate!(none, blank("Namespace", { spec: {} }));
    assert.deepEqual(none.spec, {}, "no finalizers stored, none taken from the body");
  });

  it("a Namespace being deleted stays Terminating", () => {
    const old = blank("Namespace", {
      metadata: { name: "x", deletionTimestamp: "2026-01-01T00:00:00Z" },
    });
    const obj = blank("Namespace", { status: { phase: "Active" } });
    typeOf("Namespace").prepareForUpdate!(obj, old);
    assert.equal((obj.status as { phase: string }).phase, "Terminating");
  });

  it("a PersistentVolume's phase change stamps lastPhaseTransitionTime, an unchanged one does not", () => {
    const t = typeOf("PersistentVolume");
    const old = blank("PersistentVolume", { status: { phase: "Pending" } });
    const moved = blank("PersistentVolume", { status: { phase: "Bound" } });
    t.prepareForUpdate!(moved, old);
    assert.ok((moved.status as { lastPhaseTransitionTime?: string }).lastPhaseTransitionTime);
    const same = blank("PersistentVolume", { status: { phase: "Pending" } });
    t.prepareForUpdate!(same, old);
    assert.equal(
      (same.status as { lastPhaseTransitionTime?: string }).lastPhaseTransitionTime,
      undefined,
    );
  });
});

describe("qosClass", () => {
  const withResources = (...rs: object[]) =>
    ({ spec: { containers: rs.map((resources, i) => ({ name: `c${i}`, resources })) } }) as Pod;
  const cases: [string, Pod, string][] = [
    ["no resources", withResources({}), "BestEffort"],
    ["requests only", withResources({ requests: { cpu: "1" } }), "Burstable"],
    [
      "equal limits and requests",
      withResources({ requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "1", memory: "1Gi" } }),
      "Guaranteed",
    ],
    [
      "limits only (requests default to limits)",
      withResources({ limits: { cpu: "500m", memory: "64Mi" } }),
      "Guaranteed",
    ],
    ["a memory limit missing", withResources({ limits: { cpu: "1" } }), "Burstable"],
    [
      "one container short of Guaranteed",
      withResources({ limits: { cpu: "1", memory: "1Gi" } }, { requests: { cpu: "1" } }),
      "Burstable",
    ],
    [
      "request below limit",
      withResources({ requests: { cpu: "1", memory: "1Gi" }, limits: { cpu: "2", memory: "1Gi" } }),
      "Burstable",
    ],
  ];
  for (const [why, pod, want] of cases)
    it(`${why} → ${want}`, () => assert.equal(qosClass(pod), want));
});

describe("podGracePeriod", () => {
  const pod = (spec: object, phase?: string) =>
    ({ ...blank("Pod"), spec, ...(phase ? { status: { phase } } : {}) }) as KubeObject;
  const cases: [string, KubeObject, number | undefined, number][] = [
    ["a pod on a node, default", pod({ nodeName: "n" }), undefined, 30],
    [
      "a pod on a node, its own period",
      pod({ nodeName: "n", terminationGracePeriodSeconds: 5 }),
      undefined,
      5,
    ],
    ["a requested period wins", pod({ nodeName: "n", terminationGracePeriodSeconds: 5 }), 2, 2],
    ["a pod on no node goes at once", pod({ terminationGracePeriodSeconds: 5 }), 10, 0],
    ["a Succeeded pod goes at once", pod({ nodeName: "n" }, "Succeeded"), undefined, 0],
    ["a Failed pod goes at once", pod({ nodeName: "n" }, "Failed"), 10, 0],
    ["a negative request is 0", pod({ nodeName: "n" }), -1, 0],
  ];
  for (const [why, p, requested, want] of cases)
    it(`${why}: ${want}`, () => assert.equal(podGracePeriod(p, requested), want));
});

describe("ResourceRegistry", () => {
  const custom = (version: string) =>
    builtinType({
      group: "stable.example.com",
      version,
      kind: "CronTab",
      plural: "crontabs",
      singular: "crontab",
    });

  it("looks built-in kinds up by plural and by kind", () => {
    const reg = new ResourceRegistry(TYPES);
    assert.equal(reg.lookup("", "v1", "pods")?.kind, "Pod");
    assert.equal(reg.byKind("batch", "v1", "CronJob")?.plural, "cronjobs");
    assert.equal(reg.lookup("", "v1", "crontabs"), undefined);
    assert.deepEqual(reg.groupVersions().get("batch"), ["v1"]);
  });

  it("serves, replaces and removes a CRD's versions, bumping the generation each time", () => {
    const reg = new ResourceRegistry([]);
    const g0 = reg.generation;
    reg.setCustom("crontabs.stable.example.com", [custom("v1"), custom("v2")]);
    assert.equal(reg.generation, g0 + 1);
    assert.deepEqual(
      reg.groupVersions().get("stable.example.com"),
      ["v1", "v2"],
      "preference order kept",
    );
    assert.ok(reg.lookup("stable.example.com", "v2", "crontabs"));
    reg.setCustom("crontabs.stable.example.com", [custom("v2")]);
    assert.equal(
      reg.lookup("stable.example.com", "v1", "crontabs"),
      undefined,
      "a dropped version is gone",
    );
    assert.equal(reg.all().length, 1);
    reg.removeCustom("crontabs.stable.example.com");
    assert.equal(reg.byKind("stable.example.com", "v2", "CronTab"), undefined);
    const g = reg.generation;
    reg.removeCustom("crontabs.stable.example.com");
    assert.equal(reg.generation, g, "removing what is not served changes nothing");
    reg.setCustom("crontabs.stable.example.com", [custom("v1")]);
    reg.setCustom("crontabs.stable.example.com", []);
    assert.equal(reg.all().length, 0, "an empty version list removes the CRD");
  });
});
