/**
 * The layer check of DESIGN.md: each folder under src/ may import only the layers
 * listed for it, and no module may take part in an import cycle. Exits 1 with a
 * list of violations. Run by `./hearth test`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ALLOWED: Record<string, string[]> = {
  api: [],
  pki: [],
  storage: ["api"],
  apiserver: ["api", "storage", "pki"],
  client: ["api"],
  runtime: ["api", "client"],
  controllers: ["api", "client", "runtime"],
  node: ["api", "client", "runtime"],
  platform: ["api", "client", "runtime", "pki"],
  cli: ["*"],
  main: ["*"],
};

const root = resolve(process.argv[2] ?? ".");
const src = join(root, "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s)?[^;]*?from\s+["']([^"']+)["']/g;

/** Relative imports of a file; `typeOnly` ones are erased by tsc and cannot form a runtime cycle. */
function importsOf(file: string): { path: string; typeOnly: boolean }[] {
  const text = readFileSync(file, "utf8");
  const out: { path: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3]!;
    if (!spec.startsWith(".")) continue;
    out.push({
      path: resolve(dirname(file), spec.replace(/\.js$/, ".ts")),
      typeOnly: m[2] !== undefined,
    });
  }
  return out;
}

const layerOf = (file: string) => relative(src, file).split("/")[0]!;

const problems: string[] = [];
const graph = new Map<string, string[]>();
for (const file of files(src)) {
  const from = layerOf(file);
  const allowed = ALLOWED[from];
  if (!allowed)
    problems.push(`${relative(root, file)}: folder src/${from} is not in the layer map`);
  const deps = importsOf(file);
  // Layer rules apply to every import; cycles are checked on runtime imports only.
  graph.set(
    file,
    deps.filter((d) => !d.typeOnly).map((d) => d.path),
  );
  for (const { path: dep } of deps) {
    const to = layerOf(dep);
    if (to === from || allowed?.includes("*") || allowed?.includes(to)) continue;
    problems.push(
      `${relative(root, file)}: layer ${from} may not import ${to} (${relative(root, dep)})`,
    );
  }
}

// Cycle detection over modules (Tarjan would list components; DFS colouring suffices to report one per cycle).
const state = new Map<string, "visiting" | "done">();
const stack: string[] = [];
function visit(node: string): void {
  state.set(node, "visiting");
  stack.push(node);
  for (const dep of graph.get(node) ?? []) {
    if (!graph.has(dep)) continue;
    const s = state.get(dep);
    if (s === "visiting") {
      const cycle = stack
        .slice(stack.indexOf(dep))
        .concat(dep)
        .map((f) => relative(root, f));
      problems.push(`import cycle: ${cycle.join(" -> ")}`);
    } else if (s === undefined) visit(dep);
  }
  stack.pop();
  state.set(node, "done");
}
for (const node of graph.keys()) if (!state.has(node)) visit(node);

if (problems.length > 0) {
  process.stderr.write(`layer check failed:\n${problems.map((p) => `  ${p}`).join("\n")}\n`);
  process.exit(1);
}
process.stdout.write(`layer check: ${graph.size} modules, no violations\n`);
