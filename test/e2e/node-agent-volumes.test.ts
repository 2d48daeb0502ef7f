/**
 * What a pod sees inside its sandbox, through `hearth up`: init containers in
 * order, configMap / secret / downwardAPI / emptyDir volumes, env from
 * ConfigMaps and Secrets, a pod waiting (Pending, with a condition) for a
 * claim that is not bound and running once a claim is bound to a volume in
 * DIR/volumes, the `hearth` image, restartPolicy Never ending Failed with the
 * exit code, and a liveness probe that restarts its container.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Hearth, startHearth, waitFor } from "../support/hearth-process.js";
import { nodeName, stopAndClean } from "../support/node-pods.js";
import { podSkipReason, testNetwork } from "../support/test-network.js";

interface PodJson {
  status: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: {
      restartCount: number;
      state: { terminated?: { exitCode: number; reason: string } };
    }[];
  };
}

describe("node agent: volumes, init containers, restart policies, probes", {
  skip: podSkipReason(),
}, () => {
  let h: Hearth;
  let node: string;
  before(async () => {
    h = await startHearth({
      extraArgs: [...testNetwork().args, "--crashloop-backoff-base-ms", "500"],
    });
    node = await nodeName(h);
  });
  after(async () => {
    assert.equal(await stopAndClean(h), 0);
  });
  const get = async (name: string) =>
    JSON.parse(await h.kubectlOk(["get", "pod", name, "-o", "json"])) as PodJson;
  const apply = (yaml: string) => h.kubectlOk(["apply", "-f", "-"], { input: yaml });

  it("runs init containers first and projects configMap, secret, downwardAPI and env", async () => {
    await h.kubectlOk(["create", "configmap", "conf", "--from-literal=greeting=hello"]);
    await h.kubectlOk(["create", "secret", "generic", "creds", "--from-literal=password=s3cret"]);
    await apply(`apiVersion: v1
kind: Pod
metadata: {name: show, labels: {app: show}}
spec:
  nodeName: ${node}
  restartPolicy: Never
  initContainers:
  - name: prep
    image: busybox
    command: [sh, -c, "echo prepared > /work/step"]
    volumeMounts: [{name: work, mountPath: /work}]
  containers:
  - name: main
    image: busybox
    command: [sh, -c]
    args: ["cat /work/step /conf/greeting; echo; cat /creds/password; echo; cat /info/labels; echo; echo $greeting $PASSWORD $X_password $NAME $(NAME)-x"]
    env:
    - {name: NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
    - {name: PASSWORD, valueFrom: {secretKeyRef: {name: creds, key: password}}}
    envFrom:
    - configMapRef: {name: conf}
      prefix: ""
    - prefix: X_
      secretRef: {name: creds}
    volumeMounts:
    - {name: work, mountPath: /work}
    - {name: conf, mountPath: /conf}
    - {name: creds, mountPath: /creds}
    - {name: info, mountPath: /info}
  volumes:
  - {name: work, emptyDir: {}}
  - {name: conf, configMap: {name: conf}}
  - {name: creds, secret: {secretName: creds}}
  - name: info
    downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
`);
    await waitFor(
      "the pod to succeed",
      async () => (await get("show")).status.phase === "Succeeded",
      30_000,
    );
    const out = await h.kubectlOk(["logs", "show", "-c", "main"]);
    assert.equal(out, 'prepared\nhello\ns3cret\napp="show"\nhello s3cret s3cret show show-x\n');
  });

  it("keeps a pod Pending while its claim is not bound, and runs it on the bound volume", async () => {
    await apply(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: lost}
spec:
  storageClassName: no-such-class
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Mi}}
---
apiVersion: v1
kind: Pod
metadata: {name: waits}
spec:
  nodeName: ${node}
  containers:
  - {name: main, image: busybox, command: [sleep, "3600"], volumeMounts: [{name: data, mountPath: /data}]}
  volumes:
  - {name: data, persistentVolumeClaim: {claimName: lost}}
`);
    const blocked = await waitFor("the pod's condition", async () =>
      (await get("waits")).status.conditions?.find(
        (c) => c.type === "PodReadyToStartContainers" && c.status === "False",
      ),
    );
    assert.equal(blocked.reason, "PersistentVolumeClaimNotBound");
    assert.equal(blocked.message, 'persistentvolumeclaim "lost" is not bound');
    assert.equal((await get("waits")).status.phase, "Pending");
    await h.kubectlOk(["delete", "pod", "waits", "--timeout=30s"]);

    await apply(
      `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Mi}}
---
apiVersion: v1
kind: Pod
metadata: {name: writer}
spec:
  nodeName: ${node}
  # A container's sh is PID 1 of its own PID namespace: it ignores SIGTERM, so the grace period runs out.
  terminationGracePeriodSeconds: 2
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "echo kept > /data/file; sleep 3600"]
    volumeMounts: [{name: data, mountPath: /var/lib/data}]
  volumes:
  - {name: data, persistentVolumeClaim: {claimName: data}}
`.replace("/data/file", "/var/lib/data/file"),
    );
    await h.kubectlOk(["wait", "--for=condition=Ready", "pod/writer", "--timeout=60s"]);
    const pv = (
      await h.kubectlOk(["get", "pvc", "data", "-o", "jsonpath={.spec.volumeName}"])
    ).trim();
    await waitFor("the file on the volume", () =>
      existsSync(join(h.dataDir, "volumes", pv, "file")),
    );
    await h.kubectlOk(["delete", "pod", "writer", "--timeout=30s"]);
  });

  it("runs this project's CLI from the hearth image", async () => {
    await h.kubectlOk([
      "run",
      "cli",
      "--image=hearth:dev",
      "--restart=Never",
      `--overrides={"spec":{"nodeName":"${node}"}}`,
      "--",
      "help",
    ]);
    await waitFor(
      "the CLI to finish",
      async () => (await get("cli")).status.phase === "Succeeded",
      30_000,
    );
    assert.match(await h.kubectlOk(["logs", "cli"]), /usage: hearth <command>/);
  });

  it("ends a Never pod Failed with its exit code, and restarts a container failing liveness", async () => {
    await apply(`apiVersion: v1
kind: Pod
metadata: {name: fails}
spec:
  nodeName: ${node}
  restartPolicy: Never
  containers:
  - {name: main, image: busybox, command: [sh, -c, "exit 3"]}
---
apiVersion: v1
kind: Pod
metadata: {name: sick}
spec:
  nodeName: ${node}
  terminationGracePeriodSeconds: 1
  containers:
  - name: main
    image: busybox
    command: [sh, -c, "touch /tmp/healthy; sleep 1; rm /tmp/healthy; sleep 3600"]
    livenessProbe:
      exec: {command: [test, -e, /tmp/healthy]}
      periodSeconds: 1
      failureThreshold: 1
`);
    await waitFor("Failed", async () => (await get("fails")).status.phase === "Failed", 30_000);
    const t = (await get("fails")).status.containerStatuses?.[0]?.state.terminated;
    assert.deepEqual([t?.exitCode, t?.reason], [3, "Error"]);
    assert.match(await h.kubectlOk(["get", "pod", "fails"]), /fails\s+0\/1\s+Error\s+0/);

    await waitFor(
      "a liveness restart",
      async () => ((await get("sick")).status.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
      30_000,
    );
    const events = await h.kubectlOk([
      "get",
      "events",
      "--field-selector",
      "involvedObject.name=sick",
    ]);
    assert.match(events, /Unhealthy\s+pod\/sick\s+Liveness probe failed/);
    assert.match(events, /Container main failed liveness probe, will be restarted/);
  });
});
