/** Reading the repository's sources into the map the layer rules take. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** Every `.ts` file under `dir`, repository-relative with `/` separators. */
export function sourceFiles(root: string, dir = join(root, "src")): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".ts"))
        out.set(relative(root, p).split(sep).join("/"), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return out;
}
