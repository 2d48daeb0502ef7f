/**
 * The layer check of DESIGN.md on this repository: runs `checkLayers` over
 * every `.ts` file under src/ (and `unreachableProblems`: nothing in src/ that
 * only tests use) and exits 1 with the list of violations. Run by
 * `./hearth test`.
 */
import { resolve } from "node:path";
import { checkLayers, unreachableProblems } from "./layer-rules.js";
import { sourceFiles } from "./source-files.js";

function main(): void {
  const root = resolve(process.argv[2] ?? ".");
  const files = sourceFiles(root);
  const problems = [...checkLayers(files), ...unreachableProblems(files)];
  if (problems.length > 0) {
    // exitCode, not exit(): exit() would cut a long report written to a pipe.
    process.stderr.write(`layer check failed:\n${problems.map((p) => `  ${p}`).join("\n")}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`layer check: ${files.size} modules, no violations\n`);
}

main();
