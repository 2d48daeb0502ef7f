/**
 * Runs a command in a pod's container through CRI's ExecSync on a test
 * Hearth's own containerd, what `crictl exec` does: for tests of other
 * parts (DNS, StatefulSets) that look inside a pod without going through
 * `pods/exec`, which test/e2e/exec.test.ts tests with kubectl.
 */
import assert from "node:assert/strict";
import { CriClient, containerdLayout } from "../../src/node/index.js";

export interface ExecResult {
  code: number;
  /** stdout then stderr. */
  output: string;
}

export class PodExec {
  private constructor(private readonly cri: CriClient) {}

  /** On the containerd of the `hearth up` whose data directory is `dataDir`. */
  static async connect(dataDir: string): Promise<PodExec> {
    return new PodExec(await CriClient.connect(containerdLayout(dataDir).socket));
  }

  /** Runs `cmd` in the pod's running container (`container`, else any), at most `timeoutSeconds`. */
  async exec(
    pod: string,
    cmd: string[],
    namespace = "default",
    timeoutSeconds = 20,
    container?: string,
  ) {
    const [c] = await this.cri.listContainers(
      {
        labelSelector: {
          "io.kubernetes.pod.name": pod,
          "io.kubernetes.pod.namespace": namespace,
          ...(container ? { "io.kubernetes.container.name": container } : {}),
        },
        state: { state: "CONTAINER_RUNNING" },
      },
      {},
    );
    assert.ok(c, `a running container of pod ${namespace}/${pod}`);
    const r = await this.cri.execSync(c.id, cmd, timeoutSeconds, {});
    return { code: r.exitCode, output: `${r.stdout.toString()}${r.stderr.toString()}` };
  }

  /** As exec, asserting exit code 0; returns the output. */
  async execOk(pod: string, cmd: string[], namespace = "default"): Promise<string> {
    const r = await this.exec(pod, cmd, namespace);
    assert.equal(r.code, 0, `${cmd.join(" ")} in ${pod}: ${r.output}`);
    return r.output;
  }

  close(): void {
    this.cri.close();
  }
}
