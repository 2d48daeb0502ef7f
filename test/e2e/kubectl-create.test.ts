/**
 * kubectl's imperative create commands against a real `hearth up` (no node
 * agent: the objects are checked, their pods need not run). `create service`,
 * `create job` (also `--from=cronjob/…`) and `create cronjob` send protobuf
 * bodies; each created object is read back with `kubectl get -o json` and its
 * ports, selector, pod template and schedule checked. `expose pod` builds a
 * Service from a pod's labels. The other kinds kubectl creates imperatively
 * and Hearth serves (ConfigMap, Secret, ServiceAccount, Namespace, RBAC, token)
 * are swept once. A protobuf body of a kind Hearth does not decode still gets 415.
 */
import assert from "node:assert/strict";
import https from "node:https";
import { after, before, describe, it } from "node:test";
import { loadKubeconfig } from "../../src/client/index.js";
import { type Hearth, startHearth } from "../support/hearth-process.js";
import { envelope, lField } from "../support/protobuf/test-writer.js";

/** POSTs raw bytes with the admin token; resolves with the status code and body. */
async function postBytes(
  kubeconfig: string,
  path: string,
  body: Buffer,
  contentType: string,
): Promise<{ status: number; body: string }> {
  const config = await loadKubeconfig(kubeconfig);
  const url = new URL(path, config.server);
  return new Promise((resolve, reject) => {
    const req = https.request(url, {
      method: "POST",
      ca: config.caPem,
      headers: {
        authorization: `Bearer ${config.token}`,
        "content-type": contentType,
        "content-length": String(body.length),
      },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.end(body);
  });
}

interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { containerPort: number }[];
}

interface PodTemplate {
  spec: { containers: Container[]; restartPolicy: string };
}

interface ServicePort {
  name?: string;
  protocol: string;
  port: number;
  targetPort: number | string;
}

interface Created {
  metadata: {
    name: string;
    uid: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: {
      apiVersion: string;
      kind: string;
      name: string;
      uid: string;
      controller?: boolean;
    }[];
  };
  spec: {
    ports?: ServicePort[];
    selector?: Record<string, string>;
    type?: string;
    clusterIP?: string;
    template?: PodTemplate;
    schedule?: string;
    jobTemplate?: { spec: { template: PodTemplate } };
  };
}

describe("kubectl create and expose against hearth up", () => {
  let h: Hearth;
  const getJson = async (...args: string[]): Promise<Created> =>
    JSON.parse(await h.kubectlOk(["get", ...args, "-o", "json"])) as Created;

  before(async () => {
    h = await startHearth({ extraArgs: ["--no-node-agent"] });
  });
  after(async () => {
    await h?.cleanup();
  });

  it("creates a ClusterIP Service from --tcp flags, with numeric and named target ports", async () => {
    const out = await h.kubectlOk([
      "create",
      "service",
      "clusterip",
      "web",
      "--tcp=80:8080",
      "--tcp=443:https",
    ]);
    assert.match(out, /^service\/web created$/m);
    const svc = await getJson("service", "web");
    assert.deepEqual(svc.metadata.labels, { app: "web" });
    assert.equal(svc.spec.type, "ClusterIP");
    assert.deepEqual(svc.spec.selector, { app: "web" });
    assert.deepEqual(svc.spec.ports, [
      { name: "80-8080", protocol: "TCP", port: 80, targetPort: 8080 },
      { name: "443-https", protocol: "TCP", port: 443, targetPort: "https" },
    ]);
    assert.match(svc.spec.clusterIP ?? "", /^\d+\.\d+\.\d+\.\d+$/, "a cluster IP is allocated");
  });

  it("creates a headless Service with --clusterip=None", async () => {
    await h.kubectlOk(["create", "service", "clusterip", "db", "--clusterip=None", "--tcp=5432"]);
    const svc = await getJson("service", "db");
    assert.equal(svc.spec.clusterIP, "None");
    assert.deepEqual(svc.spec.ports, [
      { name: "5432", protocol: "TCP", port: 5432, targetPort: 5432 },
    ]);
  });

  it("creates a Job whose pod template runs the given command", async () => {
    const out = await h.kubectlOk([
      "create",
      "job",
      "once",
      "--image=busybox",
      "--",
      "sh",
      "-c",
      "exit 0",
    ]);
    assert.match(out, /^job\.batch\/once created$/m);
    const job = await getJson("job", "once");
    const template = job.spec.template!;
    assert.equal(template.spec.restartPolicy, "Never");
    assert.equal(template.spec.containers.length, 1);
    const [c] = template.spec.containers;
    assert.equal(c!.name, "once");
    assert.equal(c!.image, "busybox");
    assert.deepEqual(c!.command, ["sh", "-c", "exit 0"]);
  });

  it("creates a CronJob with its schedule and job template, and a Job from it", async () => {
    const out = await h.kubectlOk([
      "create",
      "cronjob",
      "tick",
      "--image=busybox",
      "--schedule=*/1 * * * *",
      "--",
      "true",
    ]);
    assert.match(out, /^cronjob\.batch\/tick created$/m);
    const cron = await getJson("cronjob", "tick");
    assert.equal(cron.spec.schedule, "*/1 * * * *");
    const podSpec = cron.spec.jobTemplate!.spec.template.spec;
    assert.equal(podSpec.restartPolicy, "OnFailure");
    assert.deepEqual(
      podSpec.containers.map((c) => [c.name, c.image, c.command]),
      [["tick", "busybox", ["true"]]],
    );

    await h.kubectlOk(["create", "job", "tick-manual", "--from=cronjob/tick"]);
    const job = await getJson("job", "tick-manual");
    assert.equal(job.metadata.annotations?.["cronjob.kubernetes.io/instantiate"], "manual");
    assert.deepEqual(job.metadata.ownerReferences, [
      {
        apiVersion: "batch/v1",
        kind: "CronJob",
        name: "tick",
        uid: cron.metadata.uid,
        controller: true,
      },
    ]);
    assert.deepEqual(job.spec.template!.spec.containers[0]!.command, ["true"]);
  });

  it("exposes a pod as a Service selecting the pod's labels", async () => {
    await h.kubectlOk([
      "run",
      "shop",
      "--image=busybox",
      "--labels=app=shop,tier=front",
      "--port=8080",
      "--",
      "sleep",
      "3600",
    ]);
    const out = await h.kubectlOk([
      "expose",
      "pod",
      "shop",
      "--name=shop-svc",
      "--port=80",
      "--target-port=8080",
    ]);
    assert.match(out, /^service\/shop-svc exposed$/m);
    const svc = await getJson("service", "shop-svc");
    assert.deepEqual(svc.spec.selector, { app: "shop", tier: "front" });
    assert.deepEqual(
      svc.spec.ports?.map((p) => [p.protocol, p.port, p.targetPort]),
      [["TCP", 80, 8080]],
    );
  });

  it("creates the other kinds kubectl creates imperatively and Hearth serves", async () => {
    const commands: [string[], RegExp][] = [
      [["create", "namespace", "team-a"], /^namespace\/team-a created$/m],
      [
        ["create", "configmap", "cm", "--from-literal=a=1", "-n", "team-a"],
        /configmap\/cm created/,
      ],
      [
        ["create", "secret", "generic", "s", "--from-literal=p=x", "-n", "team-a"],
        /secret\/s created/,
      ],
      [
        [
          "create",
          "secret",
          "docker-registry",
          "reg",
          "--docker-server=r.example.com",
          "--docker-username=u",
          "--docker-password=pw",
          "-n",
          "team-a",
        ],
        /secret\/reg created/,
      ],
      [["create", "serviceaccount", "robot", "-n", "team-a"], /serviceaccount\/robot created/],
      [
        ["create", "role", "reader", "--verb=get,list", "--resource=pods", "-n", "team-a"],
        /role\.rbac\.authorization\.k8s\.io\/reader created/,
      ],
      [
        [
          "create",
          "rolebinding",
          "rb",
          "--role=reader",
          "--serviceaccount=team-a:robot",
          "-n",
          "team-a",
        ],
        /rolebinding\.rbac\.authorization\.k8s\.io\/rb created/,
      ],
      [
        ["create", "clusterrole", "cr", "--verb=get", "--resource=nodes"],
        /clusterrole\.rbac\.authorization\.k8s\.io\/cr created/,
      ],
      [
        ["create", "clusterrolebinding", "crb", "--clusterrole=cr", "--user=bob"],
        /clusterrolebinding\.rbac\.authorization\.k8s\.io\/crb created/,
      ],
    ];
    for (const [args, created] of commands) {
      assert.match(await h.kubectlOk(args), created, args.join(" "));
    }
    const token = await h.kubectlOk(["create", "token", "robot", "-n", "team-a"]);
    assert.match(token.trim(), /^[\w-]+\.[\w-]+\.[\w-]+$/, "a JWT");
    const cm = (await getJson("configmap", "cm", "-n", "team-a")) as unknown as {
      data: Record<string, string>;
    };
    assert.deepEqual(cm.data, { a: "1" });
  });

  it("answers 415 to a protobuf body of a kind it does not decode, creating nothing", async () => {
    const node = envelope("v1", "Node", lField(1, lField(1, "pb-node")));
    const res = await postBytes(
      h.kubeconfig,
      "/api/v1/nodes",
      node,
      "application/vnd.kubernetes.protobuf",
    );
    assert.equal(res.status, 415, res.body);
    const status = JSON.parse(res.body) as { kind: string; reason: string; message: string };
    assert.equal(status.kind, "Status");
    assert.equal(status.reason, "UnsupportedMediaType");
    assert.match(status.message, /accepted media types include: application\/json/);
    const get = await h.kubectl(["get", "node", "pb-node"]);
    assert.notEqual(get.code, 0);
    assert.match(get.stderr, /NotFound|not found/);
  });
});
