/**
 * The node agent from the command line: `hearth node --kubeconfig FILE
 * [--data-dir DIR] [--node-name NAME] [--pod-cidr CIDR] [--image-table FILE]
 * [--crashloop-backoff-base-ms N] [--keep-workloads]` runs a standalone agent
 * against any apiserver; `hearth up` starts one with the same flags. SIGTERM
 * stops its pods gracefully, unless `--keep-workloads` leaves them running for
 * the next agent to adopt.
 */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { pino } from "pino";
import { type Client, clientFromKubeconfig } from "../client/index.js";
import { type AgentOptions, ImageTable, NodeAgent } from "../node/index.js";
import { intFlag, type ParsedArgs, parseArgs } from "./args.js";

export const NODE_BOOLEAN_FLAGS = ["keep-workloads"];

/** The agent's options from flags shared by `hearth node` and `hearth up`. */
export function agentOptions(
  args: ParsedArgs,
  dataDir: string,
  log: (msg: string, err?: unknown) => void,
): AgentOptions {
  const table = args.flags.get("image-table");
  const base = args.flags.get("crashloop-backoff-base-ms");
  const name = args.flags.get("node-name");
  const cidr = args.flags.get("pod-cidr");
  return {
    dataDir,
    log,
    keepWorkloads: args.flags.get("keep-workloads") === "true",
    ...(name ? { nodeName: name } : {}),
    ...(cidr ? { podCIDR: cidr } : {}),
    ...(table ? { images: ImageTable.load(resolve(table)) } : {}),
    ...(base
      ? {
          crashBackoff: {
            baseMs: intFlag(args, "crashloop-backoff-base-ms", 10_000),
            maxMs: intFlag(args, "crashloop-backoff-max-ms", 300_000),
          },
        }
      : {}),
  };
}

/** Starts an agent; resolves once its Node is registered. */
export async function startNodeAgent(
  client: Client,
  options: AgentOptions,
  signal: AbortSignal,
): Promise<NodeAgent> {
  mkdirSync(options.dataDir, { recursive: true });
  const agent = new NodeAgent(client, options);
  await agent.start(signal);
  return agent;
}

export async function node(argv: string[]): Promise<void> {
  const args = parseArgs(argv, NODE_BOOLEAN_FLAGS);
  const kubeconfig = args.flags.get("kubeconfig") ?? process.env.KUBECONFIG;
  if (!kubeconfig) throw new Error("hearth node needs --kubeconfig FILE (or KUBECONFIG)");
  const log = pino({ name: "hearth-node" }, pino.destination(2));
  const dataDir = resolve(args.flags.get("data-dir") ?? ".hearth-node");
  const client = await clientFromKubeconfig(resolve(kubeconfig));
  const controller = new AbortController();
  const agent = await startNodeAgent(
    client,
    agentOptions(args, dataDir, (msg, err) => log.error({ err }, msg)),
    controller.signal,
  );
  const stop = async (signal: string) => {
    log.info({ signal }, "stopping");
    controller.abort();
    await agent.stopped();
    client.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
  process.stdout.write(`hearth node is ready: ${dataDir} (logs on 127.0.0.1:${agent.port})\n`);
}
