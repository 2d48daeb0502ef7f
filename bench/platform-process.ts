/**
 * `hearth up` for the platform benchmarks: a real child process on a fresh
 * data directory, with the node agent, a pod CIDR and a service CIDR of its own
 * (as the Etcd e2e tests run it, so that other hearths on the machine do not
 * collide with its ClusterIPs), and a client from its admin kubeconfig.
 * `stop()` sends SIGTERM (the agent stops its pods), kills any pod process
 * left and removes the directory; it returns how many it had to kill.
 */
import { join } from "node:path";
import { clientFromKubeconfig, type HttpClient } from "../src/client/index.js";
import { etcdHearthArgs } from "../test/support/etcd-cluster.js";
import { startHearth } from "../test/support/hearth-process.js";
import { stopAndClean } from "../test/support/node-pods.js";

export interface PlatformProcess {
  pid: number;
  client: HttpClient;
  stop(): Promise<number>;
}

export async function startPlatform(dir: string, name: string): Promise<PlatformProcess> {
  const h = await startHearth({
    dataDir: join(dir, name),
    extraArgs: [...etcdHearthArgs(), "--root-host", "example.org"],
    timeoutMs: 90_000,
  });
  let client: HttpClient;
  try {
    client = await clientFromKubeconfig(h.kubeconfig);
  } catch (e) {
    await stopAndClean(h);
    throw e;
  }
  return {
    pid: h.process.pid!,
    client,
    async stop() {
      client.close();
      return stopAndClean(h);
    },
  };
}
