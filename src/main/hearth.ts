#!/usr/bin/env node
/** The `hearth` executable: picks a command and runs it. */
import { node, up } from "../cli/index.js";

const USAGE = `usage: hearth <command> [flags]

commands:
  up [--data-dir DIR] [--port N] [--host ADDR]   run the platform (defaults ./.hearth, 6443)
     [--pod-cidr CIDR] [--node-name NAME] [--keep-workloads] [--no-node-agent]
  node --kubeconfig FILE [--data-dir DIR]        run a node agent against an apiserver
     [--node-name NAME] [--pod-cidr CIDR] [--image-table FILE] [--keep-workloads]
`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "up":
      return up(rest);
    case "node":
      return node(rest);
    case undefined:
    case "help":
    case "--help":
      process.stdout.write(USAGE);
      return;
    default:
      process.stderr.write(`hearth: unknown command ${JSON.stringify(command)}\n${USAGE}`);
      process.exit(2);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`hearth: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
