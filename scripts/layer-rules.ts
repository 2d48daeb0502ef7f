/**
 * The layer rules of DESIGN.md as a pure function over a map of source files
 * (repository-relative path → text), so the check can be tested on synthetic
 * trees. `check-layers.ts` runs it on the repository; `fix-deep-imports.ts`
 * shares the import parsing and the layer map.
 */
import { posix } from "node:path";
import ts from "typescript";

/** Which layers each folder under src/ may import ("*": any). */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  api: [],
  pki: [],
  storage: ["api"],
  apiserver: ["api", "storage", "pki"],
  client: ["api"],
  runtime: ["api", "client"],
  controllers: ["api", "client", "runtime"],
  node: ["api", "client", "runtime"],
  platform: ["api", "client", "runtime", "pki"],
  images: [],
  cli: ["*"],
  main: ["*"],
};

/** Folders of src/platform whose sub-folders are components (one app or operator each). */
export const COMPONENT_ROOTS: readonly string[] = ["apps", "operators"];

export const MAX_LINES = 400;

export interface CheckOptions {
  /** Files the size rule skips; see TEMPORARY_SIZE_EXEMPT in check-layers.ts. */
  sizeExempt?: ReadonlySet<string>;
}

/** An import of one file by another, both repository-relative. */
export interface Edge {
  from: string;
  to: string;
}

/**
 * Every relative import of a file (static, `export … from`, dynamic and
 * `import("…")` types alike: type-only imports count, since a cycle of types
 * still ties two modules into one), resolved to the `.ts` file it names.
 */
export function importsOf(path: string, text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => posix.join(posix.dirname(path), spec.replace(/\.js$/, ".ts")));
}

/** `src/<layer>/…` → layer; undefined outside src/. */
export function layerOf(path: string): string | undefined {
  const parts = path.split("/");
  return parts[0] === "src" && parts.length > 2 ? parts[1] : undefined;
}

/** `src/platform/apps/<name>/…` → `src/platform/apps/<name>`; undefined if not in a component. */
export function componentOf(path: string): string | undefined {
  const p = path.split("/");
  if (p[0] !== "src" || p[1] !== "platform" || p.length < 5) return undefined;
  return COMPONENT_ROOTS.includes(p[2]!) ? p.slice(0, 4).join("/") : undefined;
}

/** What an import must name when it crosses into another layer or component. */
export const indexOf = (folder: string) => `${folder}/index.ts`;

/**
 * The index.ts an import must name instead of `to` when it reaches deep into
 * another layer, or from one component into another; undefined when `to` is fine.
 */
export function boundaryIndex({ from, to }: Edge): string | undefined {
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (toLayer !== undefined && toLayer !== fromLayer) {
    const index = indexOf(`src/${toLayer}`);
    return to === index ? undefined : index;
  }
  const own = componentOf(from);
  const target = componentOf(to);
  if (own === undefined || target === undefined || own === target) return undefined;
  return to === indexOf(target) ? undefined : indexOf(target);
}

/** The problems with one import, as messages naming the importer, the rule and the target. */
export function edgeProblems(edge: Edge): string[] {
  const { from, to } = edge;
  const fromLayer = layerOf(from)!;
  const toLayer = layerOf(to);
  if (toLayer !== undefined && toLayer !== fromLayer) {
    const allowed = ALLOWED[fromLayer] ?? [];
    if (!allowed.includes("*") && !allowed.includes(toLayer))
      return [`${from}: layer ${fromLayer} may not import ${toLayer} (${to})`];
  }
  const out: string[] = [];
  if (from.startsWith("src/platform/engine/") && componentOf(to) !== undefined)
    out.push(`${from}: the apps engine may not import a component (${to})`);
  const index = boundaryIndex(edge);
  if (index !== undefined) out.push(`${from}: imports ${to} deep; import ${index} instead`);
  return out;
}

function sizeProblem(path: string, text: string, options: CheckOptions): string | undefined {
  if (path.endsWith(".test.ts") || options.sizeExempt?.has(path)) return undefined;
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines <= MAX_LINES) return undefined;
  return `${path}: ${lines} lines; a source file may have at most ${MAX_LINES}, split it`;
}

/** Every violation in `files`, sorted; only files under src/ are checked. */
export function checkLayers(
  files: ReadonlyMap<string, string>,
  options: CheckOptions = {},
): string[] {
  const problems: string[] = [];
  const graph = new Map<string, string[]>();
  for (const [path, text] of files) {
    const layer = layerOf(path);
    if (layer === undefined || !path.endsWith(".ts")) continue;
    if (!(layer in ALLOWED)) problems.push(`${path}: folder src/${layer} is not in the layer map`);
    const size = sizeProblem(path, text, options);
    if (size) problems.push(size);
    const deps = importsOf(path, text);
    graph.set(path, deps);
    for (const to of deps) problems.push(...edgeProblems({ from: path, to }));
  }
  problems.sort();
  return problems.concat(cycles(graph).map((c) => `import cycle: ${c.join(" -> ")}`));
}

/**
 * One cycle per strongly connected component of the import graph (Tarjan),
 * each as a path that starts and ends at the component's first module.
 */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const out: string[][] = [];
  for (const scc of stronglyConnected(graph)) {
    const start = scc[0]!;
    const selfLoop = graph.get(start)?.includes(start);
    if (scc.length === 1 && !selfLoop) continue;
    out.push(pathBack(graph, new Set(scc), start));
  }
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const dep of graph.get(node) ?? []) {
      if (!graph.has(dep)) continue;
      if (!index.has(dep)) {
        visit(dep);
        low.set(node, Math.min(low.get(node)!, low.get(dep)!));
      } else if (onStack.has(dep)) low.set(node, Math.min(low.get(node)!, index.get(dep)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const scc: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      scc.push(member);
    } while (member !== node);
    out.push(scc.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return out;
}

/** The shortest path from `start` back to itself inside one component (breadth first). */
function pathBack(
  graph: ReadonlyMap<string, readonly string[]>,
  members: ReadonlySet<string>,
  start: string,
): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const dep of graph.get(node) ?? []) {
      if (!members.has(dep)) continue;
      if (dep === start) {
        const path = [start];
        for (let n = node; n !== start; n = parent.get(n)!) path.unshift(n);
        return [start, ...path];
      }
      if (parent.has(dep)) continue;
      parent.set(dep, node);
      queue.push(dep);
    }
  }
  return [start, start];
}

/** Where the program starts: every file under src/main/ is an entry point. */
export const ENTRY_ROOT = "src/main/";

/**
 * Source files under src/ that no entry point reaches through the imports of
 * other source files: test fixtures and suites kept beside the code (they
 * belong in test/support/, where they count as tests) or dead code. Test
 * files (`*.test.ts`) are neither entries nor links.
 */
export function unreachableProblems(files: ReadonlyMap<string, string>): string[] {
  const isSource = (p: string) => layerOf(p) !== undefined && !p.endsWith(".test.ts");
  const seen = new Set<string>();
  const stack = [...files.keys()].filter((p) => isSource(p) && p.startsWith(ENTRY_ROOT));
  while (stack.length > 0) {
    const path = stack.pop()!;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const dep of importsOf(path, files.get(path) ?? ""))
      if (files.has(dep) && isSource(dep)) stack.push(dep);
  }
  return [...files.keys()]
    .filter((p) => isSource(p) && p.endsWith(".ts") && !seen.has(p))
    .sort()
    .map(
      (p) =>
        `${p}: no entry point under ${ENTRY_ROOT} reaches it; a test-only file belongs in test/support/, dead code goes`,
    );
}
