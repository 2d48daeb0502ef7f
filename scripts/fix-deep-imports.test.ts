import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { fixDeepImports } from "./fix-deep-imports.js";
import { checkLayers } from "./layer-rules.js";
import { sourceFiles } from "./source-files.js";

const TSCONFIG = {
  compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", strict: true, types: [] },
  include: ["src/**/*.ts"],
};

/** The tree every case starts from: deep imports across a layer and between two components. */
const TREE: Record<string, string> = {
  "src/api/types.ts": 'export interface Pod {\n  name: string;\n}\nexport const POD = "Pod";\n',
  "src/api/names.ts": "export function dns(s: string): string {\n  return s;\n}\n",
  "src/controllers/pods.ts": [
    'import { dns } from "../api/names.js";',
    'import { POD, type Pod } from "../api/types.js";',
    "export const pod: Pod = { name: dns(POD) };",
    "",
  ].join("\n"),
  "src/platform/operators/etcd/index.ts": 'export { ETCD_GROUP } from "./types.js";\n',
  "src/platform/operators/etcd/types.ts":
    'export const ETCD_GROUP = "etcd";\nexport type EtcdCluster = { size: number };\n',
  "src/platform/apps/etcd/render.ts": [
    'import { ETCD_GROUP, type EtcdCluster } from "../../operators/etcd/types.js";',
    "export const cluster: EtcdCluster = { size: ETCD_GROUP.length };",
    "",
  ].join("\n"),
};

describe("fixDeepImports", () => {
  let root: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const read = (path: string) => readFileSync(join(root, path), "utf8");

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "fix-deep-imports-"));
    write("tsconfig.json", JSON.stringify(TSCONFIG));
    for (const [path, text] of Object.entries(TREE)) write(path, text);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("re-points deep imports to the index, adding the exports it lacks, and is idempotent", () => {
    const first = fixDeepImports(root, { format: false });
    assert.deepEqual(first, {
      written: [
        "src/api/index.ts",
        "src/controllers/pods.ts",
        "src/platform/apps/etcd/render.ts",
        "src/platform/operators/etcd/index.ts",
      ],
      problems: [],
    });
    assert.match(read("src/controllers/pods.ts"), /import \{ dns \} from "\.\.\/api\/index\.js";/);
    assert.match(
      read("src/controllers/pods.ts"),
      /import \{ POD, type Pod \} from "\.\.\/api\/index\.js";/,
    );
    assert.match(
      read("src/platform/apps/etcd/render.ts"),
      /from "\.\.\/\.\.\/operators\/etcd\/index\.js"/,
    );
    const api = read("src/api/index.ts");
    assert.match(api, /^export \{ dns \} from "\.\/names\.js";$/m);
    assert.match(api, /^export \{ POD \} from "\.\/types\.js";$/m);
    assert.match(api, /^export type \{ Pod \} from "\.\/types\.js";$/m);
    assert.equal(
      read("src/platform/operators/etcd/index.ts"),
      'export { ETCD_GROUP } from "./types.js";\nexport type { EtcdCluster } from "./types.js";\n',
    );
    assert.deepEqual(checkLayers(sourceFiles(root)), []);

    const before = [...sourceFiles(root)];
    assert.deepEqual(fixDeepImports(root, { format: false }), { written: [], problems: [] });
    assert.deepEqual([...sourceFiles(root)], before);
  });

  it("writes nothing when two modules would export one name from the index", () => {
    write("src/api/other.ts", 'export const POD = "other";\n');
    write("src/node/agent.ts", 'import { POD } from "../api/other.js";\nexport const p = POD;\n');
    const before = [...sourceFiles(root)];
    const result = fixDeepImports(root, { format: false });
    assert.deepEqual(result.written, []);
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0]!, /^src\/api\/index\.ts: POD would come from two modules/);
    assert.deepEqual([...sourceFiles(root)], before);
  });

  it("refuses imports it cannot re-point by name", () => {
    write(
      "src/node/agent.ts",
      'import * as types from "../api/types.js";\nexport const p = types.POD;\n',
    );
    const result = fixDeepImports(root, { format: false });
    assert.deepEqual(result, {
      written: [],
      problems: [
        "src/node/agent.ts: a namespace import of src/api/types.ts cannot be re-pointed to src/api/index.ts",
      ],
    });
  });
});
