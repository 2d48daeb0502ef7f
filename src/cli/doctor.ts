/**
 * `hearth doctor [--kubeconfig FILE | --data-dir DIR] [--threshold DURATION]
 * [--namespace NS] [-o json]`: lists every object whose deletion has waited
 * longer than the threshold (default 60s), what holds it, who owns each
 * finalizer and the one safe next step; with --namespace, why that namespace is
 * still Terminating (docs/doctor.md). It only reads.
 *
 * Exit codes, for scripts: 0 nothing stuck, 1 something stuck, 2 the check
 * could not run (a bad flag, no kubeconfig, the API not answering).
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { clientFromKubeconfig, errorText } from "../client/index.js";
import { diagnose, formatReport, somethingStuck } from "../platform/index.js";
import { durationFlag, type ParsedArgs, parseArgs } from "./args.js";

const KNOWN = ["kubeconfig", "data-dir", "threshold", "namespace", "output"];

/** kubectl's `-o json`, `-ojson`, `-o=json` as `--output json`. */
function normalizeOutput(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "-o") out.push("--output");
    else if (a.startsWith("-o=")) out.push(`--output=${a.slice(3)}`);
    else if (a.startsWith("-o") && !a.startsWith("--")) out.push(`--output=${a.slice(2)}`);
    else out.push(a);
  }
  return out;
}

export interface DoctorFlags {
  kubeconfig: string;
  thresholdMs: number;
  namespace?: string;
  json: boolean;
}

/** The flags of `hearth doctor`; throws a message for a bad one. */
export function doctorFlags(argv: string[], env: NodeJS.ProcessEnv = process.env): DoctorFlags {
  const args: ParsedArgs = parseArgs(normalizeOutput(argv));
  for (const name of args.flags.keys())
    if (!KNOWN.includes(name)) throw new Error(`unknown flag --${name}`);
  if (args.positional.length > 0)
    throw new Error(`unexpected argument ${JSON.stringify(args.positional[0])}`);
  const output = args.flags.get("output");
  if (output !== undefined && output !== "json")
    throw new Error(`-o must be json (or left out for text), got ${JSON.stringify(output)}`);
  const given = args.flags.get("kubeconfig");
  const dataDir = args.flags.get("data-dir");
  if (given !== undefined && dataDir !== undefined)
    throw new Error("give --kubeconfig FILE or --data-dir DIR, not both");
  const kubeconfig = resolve(
    given ??
      (dataDir !== undefined ? join(dataDir, "admin.kubeconfig") : undefined) ??
      env.KUBECONFIG ??
      join(".hearth", "admin.kubeconfig"),
  );
  const flags: DoctorFlags = {
    kubeconfig,
    thresholdMs: durationFlag(args, "threshold", "60s"),
    json: output === "json",
  };
  const namespace = args.flags.get("namespace");
  if (namespace !== undefined) flags.namespace = namespace;
  return flags;
}

/** Runs the check; resolves to the exit code. */
export async function doctor(argv: string[]): Promise<number> {
  let flags: DoctorFlags;
  try {
    flags = doctorFlags(argv);
    if (!existsSync(flags.kubeconfig))
      throw new Error(
        `no kubeconfig at ${flags.kubeconfig}: give --kubeconfig FILE or --data-dir DIR (hearth up writes DIR/admin.kubeconfig)`,
      );
  } catch (e) {
    process.stderr.write(`hearth doctor: ${errorText(e)}\n`);
    return 2;
  }
  let report: Awaited<ReturnType<typeof diagnose>>;
  try {
    const client = await clientFromKubeconfig(flags.kubeconfig);
    report = await diagnose(client, {
      thresholdMs: flags.thresholdMs,
      ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
    });
  } catch (e) {
    process.stderr.write(`hearth doctor: cannot check the cluster: ${errorText(e)}\n`);
    return 2;
  }
  process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return somethingStuck(report) ? 1 : 0;
}
