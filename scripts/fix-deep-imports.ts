/**
 * Codemod: rewrites every import that reaches deep into another layer (or from
 * one platform component into another) to name that layer's or component's
 * index.ts, and adds to the index the exports it lacks (`export type` for
 * types). Deterministic and idempotent: run it again after a merge, then build.
 *   node dist/scripts/fix-deep-imports.js [repo-root]
 * Refuses (exit 1, nothing written) when an index already exports, or would
 * export, the same name from two modules, or when an import cannot be
 * re-pointed by name (default, namespace or side-effect imports, `export *`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, posix, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { boundaryIndex } from "./layer-rules.js";

/** One name an index must export, and the module it comes from. */
interface Export {
  name: string;
  module: string;
  symbol: ts.Symbol;
  typeOnly: boolean;
}

interface Plan {
  root: string;
  /** file → [start, end, replacement] edits of module specifiers. */
  edits: Map<string, [number, number, string][]>;
  /** index file → name → export. */
  exports: Map<string, Map<string, Export>>;
  problems: string[];
}

const slashes = (p: string) => p.split("\\").join("/");

/** `./x.js` / `../api/index.js`: how `fromFile` names `toFile` (both repository-relative). */
function specifier(fromFile: string, toFile: string): string {
  const path = posix.relative(posix.dirname(fromFile), toFile).replace(/\.ts$/, ".js");
  return path.startsWith(".") ? path : `./${path}`;
}

function program(root: string): ts.Program {
  const configPath = join(root, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
}

/** The symbol a name resolves to, through any re-exports. */
function original(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function exportsOf(
  checker: ts.TypeChecker,
  file: ts.SourceFile | undefined,
): Map<string, ts.Symbol> {
  const module = file && checker.getSymbolAtLocation(file);
  const out = new Map<string, ts.Symbol>();
  for (const s of module ? checker.getExportsOfModule(module) : []) out.set(s.name, s);
  return out;
}

/** The names a declaration takes from its module, or why it cannot be re-pointed. */
function namesOf(decl: ts.ImportDeclaration | ts.ExportDeclaration): string[] | string {
  if (ts.isExportDeclaration(decl)) {
    const clause = decl.exportClause;
    if (!clause || !ts.isNamedExports(clause)) return "an `export *`";
    return clause.elements.map((e) => (e.propertyName ?? e.name).text);
  }
  const clause = decl.importClause;
  if (!clause) return "a side-effect import";
  if (clause.name) return "a default import";
  const bindings = clause.namedBindings;
  if (!bindings || !ts.isNamedImports(bindings)) return "a namespace import";
  return bindings.elements.map((e) => (e.propertyName ?? e.name).text);
}

function planFile(p: ts.Program, file: ts.SourceFile, plan: Plan): void {
  const checker = p.getTypeChecker();
  const { root } = plan;
  const from = posix.relative(slashes(root), slashes(file.fileName));
  for (const decl of file.statements) {
    if (!ts.isImportDeclaration(decl) && !ts.isExportDeclaration(decl)) continue;
    const spec = decl.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith(".")) continue;
    const to = posix.join(posix.dirname(from), spec.text.replace(/\.js$/, ".ts"));
    const index = boundaryIndex({ from, to });
    if (index === undefined) continue;
    const names = namesOf(decl);
    if (typeof names === "string") {
      plan.problems.push(`${from}: ${names} of ${to} cannot be re-pointed to ${index}`);
      continue;
    }
    const source = exportsOf(checker, p.getSourceFile(join(root, to)));
    const present = exportsOf(checker, p.getSourceFile(join(root, index)));
    const wanted = plan.exports.get(index) ?? new Map<string, Export>();
    plan.exports.set(index, wanted);
    for (const name of names) {
      const found = source.get(name);
      if (!found) {
        plan.problems.push(`${from}: ${to} has no export ${name}`);
        continue;
      }
      const symbol = original(checker, found);
      const there = present.get(name) ?? wanted.get(name)?.symbol;
      if (there !== undefined && original(checker, there) !== symbol) {
        plan.problems.push(`${index}: ${name} would come from two modules (one is ${to})`);
        continue;
      }
      if (there !== undefined) continue;
      const typeOnly = (symbol.flags & ts.SymbolFlags.Value) === 0;
      wanted.set(name, { name, module: specifier(index, to), symbol, typeOnly });
    }
    const edits = plan.edits.get(from) ?? [];
    edits.push([spec.getStart(file), spec.getEnd(), JSON.stringify(specifier(from, index))]);
    plan.edits.set(from, edits);
  }
}

/** The `export … from` lines an index gains, one per module and kind, sorted. */
function exportLines(wanted: Map<string, Export>): string {
  const groups = new Map<string, string[]>();
  for (const e of [...wanted.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const key = `${e.typeOnly ? "export type" : "export"}\0${e.module}`;
    groups.set(key, [...(groups.get(key) ?? []), e.name]);
  }
  return [...groups.keys()]
    .sort()
    .map((key) => {
      const [keyword, module] = key.split("\0");
      return `${keyword} { ${groups.get(key)!.join(", ")} } from "${module}";\n`;
    })
    .join("");
}

function apply(plan: Plan): string[] {
  const { root } = plan;
  const written: string[] = [];
  for (const [file, edits] of plan.edits) {
    let text = readFileSync(join(root, file), "utf8");
    for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0]))
      text = text.slice(0, start) + replacement + text.slice(end);
    writeFileSync(join(root, file), text);
    written.push(file);
  }
  for (const [index, wanted] of plan.exports) {
    if (wanted.size === 0) continue;
    const path = join(root, index);
    const folder = posix.dirname(index);
    const head = existsSync(path)
      ? readFileSync(path, "utf8")
      : `/** The facade of ${folder}/: what other layers and components import from it. */\n`;
    writeFileSync(path, head + exportLines(wanted));
    written.push(index);
  }
  return [...new Set(written)].sort();
}

export interface FixOptions {
  /** Run biome on the files written (default true); it merges imports that now share a specifier. */
  format?: boolean;
}

/**
 * Plans every rewrite under `root`/src, then writes all of it, or nothing when
 * a problem was found. Returns the files written (repository-relative) and the problems.
 */
export function fixDeepImports(
  root: string,
  options: FixOptions = {},
): { written: string[]; problems: string[] } {
  root = resolve(root);
  const p = program(root);
  const plan: Plan = { root, edits: new Map(), exports: new Map(), problems: [] };
  const src = `${slashes(root)}/src/`;
  const files = p
    .getSourceFiles()
    .filter((f) => slashes(f.fileName).startsWith(src))
    .sort((a, b) => (a.fileName < b.fileName ? -1 : 1));
  for (const file of files) planFile(p, file, plan);
  if (plan.problems.length > 0) return { written: [], problems: plan.problems };
  const written = apply(plan);
  if (written.length > 0 && options.format !== false)
    execFileSync("npx", ["biome", "check", "--write", ...written], { cwd: root, stdio: "inherit" });
  return { written, problems: [] };
}

function main(): void {
  const { written, problems } = fixDeepImports(resolve(process.argv[2] ?? "."));
  if (problems.length > 0) {
    process.stderr.write(`fix-deep-imports: nothing written:\n  ${problems.join("\n  ")}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`fix-deep-imports: ${written.length} files rewritten\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) main();
