/**
 * `hearth controllers --kubeconfig FILE [--leader-elect=false]
 * [--leader-elect-lease-duration 15s] [--leader-elect-renew-deadline 10s]
 * [--leader-elect-retry-period 2s] [--node-monitor-grace-period 40s]`: the
 * core controllers (namespace lifecycle, the garbage collector, the scheduler,
 * endpoints, quota, disruption, Jobs and CronJobs, the workload controllers,
 * node lifecycle) against any apiserver, as kube-controller-manager and
 * kube-scheduler run beside a kube-apiserver — what a tenant control plane
 * runs next to its `hearth apiserver`. With leader election (the default, as
 * kube's) replicas share the Lease `kube-system/hearth-controllers`: one
 * leads, the others wait, and one takes over within a lease duration when the
 * leader goes. A leader that cannot renew stops its controllers before
 * another may start its own, and campaigns again.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { pino } from "pino";
import { clientFromKubeconfig } from "../client/index.js";
import { runCoreControllers } from "../controllers/index.js";
import { LeaderElector } from "../runtime/index.js";
import { durationFlag, parseArgs } from "./args.js";

/** The Lease the replicas of one cluster's controllers campaign for. */
export const CONTROLLERS_LEASE = { namespace: "kube-system", name: "hearth-controllers" };

export async function controllers(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const kubeconfig = args.flags.get("kubeconfig") ?? process.env.KUBECONFIG;
  if (!kubeconfig) throw new Error("hearth controllers needs --kubeconfig FILE (or KUBECONFIG)");
  const elect = args.flags.get("leader-elect") ?? "true";
  if (elect !== "true" && elect !== "false")
    throw new Error(`--leader-elect must be true or false, got ${JSON.stringify(elect)}`);
  const timing = {
    leaseDurationMs: durationFlag(args, "leader-elect-lease-duration", "15s"),
    renewDeadlineMs: durationFlag(args, "leader-elect-renew-deadline", "10s"),
    retryPeriodMs: durationFlag(args, "leader-elect-retry-period", "2s"),
  };
  // kube-controller-manager's own checks of the three.
  if (timing.leaseDurationMs <= timing.renewDeadlineMs)
    throw new Error(
      "--leader-elect-lease-duration must be greater than --leader-elect-renew-deadline",
    );
  if (timing.renewDeadlineMs <= timing.retryPeriodMs)
    throw new Error(
      "--leader-elect-renew-deadline must be greater than --leader-elect-retry-period",
    );
  const nodeMonitorGracePeriodMs = durationFlag(args, "node-monitor-grace-period", "40s");
  const log = pino({ name: "hearth-controllers" }, pino.destination(2));
  const client = await clientFromKubeconfig(resolve(kubeconfig));
  const identity = `${hostname()}_${randomUUID()}`;
  const stop = new AbortController();
  const run = (signal: AbortSignal) =>
    runCoreControllers(client, signal, {
      log: (msg, err) => log.error({ err }, msg),
      nodeMonitorGracePeriodMs,
    });
  const done =
    elect === "true"
      ? new LeaderElector(client, { ...CONTROLLERS_LEASE, identity, ...timing }).run(
          stop.signal,
          async (leading) => {
            log.info({ identity }, "leading: controllers started");
            process.stdout.write(`hearth controllers are leading as ${identity}\n`);
            await run(leading);
            log.info({ identity }, "no longer leading: controllers stopped");
          },
        )
      : run(stop.signal);
  process.stdout.write(
    elect === "true"
      ? `hearth controllers are running as ${identity} (leader election on ${CONTROLLERS_LEASE.namespace}/${CONTROLLERS_LEASE.name})\n`
      : `hearth controllers are running as ${identity} (no leader election)\n`,
  );
  const shutdown = async (signal: string) => {
    log.info({ signal }, "stopping");
    stop.abort();
    await done;
    client.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  await done;
}
