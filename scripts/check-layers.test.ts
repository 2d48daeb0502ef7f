import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { boundaryIndex, checkLayers, MAX_LINES, unreachableProblems } from "./layer-rules.js";

/** A file of `n` lines. */
const lines = (n: number) => "export const x = 1;\n".repeat(n);

/** A small tree in the good shapes every rule allows. */
function goodTree(): Map<string, string> {
  return new Map([
    ["src/api/index.ts", 'export type { Pod } from "./types.js";\n'],
    ["src/api/types.ts", "export interface Pod { name: string }\n"],
    ["src/client/index.ts", 'import type { Pod } from "../api/index.js";\nexport type P = Pod;\n'],
    [
      "src/controllers/pods.ts",
      'import type { P } from "../client/index.js";\nexport type Q = P;\n',
    ],
    ["src/platform/engine/module.ts", 'import type { Pod } from "../../api/index.js";\n'],
    ["src/platform/apps/etcd/index.ts", 'export { render } from "./render.js";\n'],
    ["src/platform/apps/etcd/render.ts", 'import { x } from "../../engine/module.js";\n'],
    ["src/platform/operators/etcd/index.ts", 'export const ETCD = "etcd";\n'],
    [
      "src/platform/apps/tenant/index.ts",
      'import { ETCD } from "../../operators/etcd/index.js";\n',
    ],
    ["src/platform/index.ts", 'import { render } from "./apps/etcd/render.js";\n'],
    ["src/main/hearth.ts", 'import "../cli/index.js";\n'],
    ["src/cli/index.ts", 'export { Q } from "../controllers/index.js";\n'],
    ["src/controllers/index.ts", 'export type { Q } from "./pods.js";\n'],
    ["src/controllers/pods.test.ts", lines(MAX_LINES + 50)],
    ["src/api/big.ts", lines(MAX_LINES)],
    ["test/e2e.test.ts", 'import { Pod } from "../src/api/types.js";\n'],
  ]);
}

/** The good tree with `path` set to `text`. */
function withFile(path: string, text: string): Map<string, string> {
  return new Map(goodTree()).set(path, text);
}

describe("checkLayers", () => {
  it("accepts the good shapes", () => {
    assert.deepEqual(checkLayers(goodTree()), []);
  });

  it("rejects an import cycle made only of type imports", () => {
    const files = withFile("src/api/a.ts", 'import type { B } from "./b.js";\n').set(
      "src/api/b.ts",
      'export type { A } from "./a.js";\n',
    );
    assert.deepEqual(checkLayers(files), [
      "import cycle: src/api/a.ts -> src/api/b.ts -> src/api/a.ts",
    ]);
  });

  it("reports one cycle for each knot, however many paths run through it", () => {
    const files = withFile("src/api/a.ts", 'import "./b.js";\nimport "./c.js";\n')
      .set("src/api/b.ts", 'import "./a.js";\nimport "./c.js";\n')
      .set("src/api/c.ts", 'import "./a.js";\n')
      .set("src/api/d.ts", 'import "./d.js";\n');
    assert.deepEqual(checkLayers(files), [
      "import cycle: src/api/a.ts -> src/api/b.ts -> src/api/a.ts",
      "import cycle: src/api/d.ts -> src/api/d.ts",
    ]);
  });

  it("rejects a deep import into another layer", () => {
    const files = withFile(
      "src/controllers/pods.ts",
      'import type { Pod } from "../api/types.js";\nimport { c } from "../client/index.js";\n',
    );
    assert.deepEqual(checkLayers(files), [
      "src/controllers/pods.ts: imports src/api/types.ts deep; import src/api/index.ts instead",
    ]);
  });

  it("holds cli and main, which may import any layer, to the index rule too", () => {
    const files = withFile("src/cli/index.ts", 'export { Q } from "../controllers/pods.js";\n');
    assert.deepEqual(checkLayers(files), [
      "src/cli/index.ts: imports src/controllers/pods.ts deep; import src/controllers/index.ts instead",
    ]);
  });

  it("rejects an import of a layer the map does not allow, and a folder not in the map", () => {
    const files = withFile(
      "src/api/names.ts",
      'import type { P } from "../client/index.js";\n',
    ).set("src/extra/x.ts", "export {};\n");
    assert.deepEqual(checkLayers(files), [
      "src/api/names.ts: layer api may not import client (src/client/index.ts)",
      "src/extra/x.ts: folder src/extra is not in the layer map",
    ]);
  });

  it("rejects an app importing another component's internals", () => {
    const files = withFile(
      "src/platform/apps/tenant/index.ts",
      'import { render } from "../etcd/render.js";\nimport { T } from "../../operators/etcd/types.js";\n',
    );
    assert.deepEqual(checkLayers(files), [
      "src/platform/apps/tenant/index.ts: imports src/platform/apps/etcd/render.ts deep; import src/platform/apps/etcd/index.ts instead",
      "src/platform/apps/tenant/index.ts: imports src/platform/operators/etcd/types.ts deep; import src/platform/operators/etcd/index.ts instead",
    ]);
  });

  it("rejects the apps engine importing an app or operator, even through its index", () => {
    const files = withFile(
      "src/platform/engine/engine.ts",
      'import { render } from "../apps/etcd/index.js";\nimport type { E } from "../operators/etcd/index.js";\n',
    );
    assert.deepEqual(checkLayers(files), [
      "src/platform/engine/engine.ts: the apps engine may not import a component (src/platform/apps/etcd/index.ts)",
      "src/platform/engine/engine.ts: the apps engine may not import a component (src/platform/operators/etcd/index.ts)",
    ]);
  });

  it(`rejects a source file over ${MAX_LINES} lines, unless exempted by name`, () => {
    const files = withFile("src/api/big.ts", lines(MAX_LINES + 1));
    assert.deepEqual(checkLayers(files), [
      `src/api/big.ts: ${MAX_LINES + 1} lines; a source file may have at most ${MAX_LINES}, split it`,
    ]);
    assert.deepEqual(checkLayers(files, { sizeExempt: new Set(["src/api/big.ts"]) }), []);
  });

  it("sees imports however they are written, and not in comments or strings", () => {
    const text = [
      "// import { a } from '../client/x.js';",
      'const s = "import { b } from \\"../client/y.js\\"";',
      'let t: import("../../api/types.js").Pod;',
      "import {",
      "  type Q,",
      '} from "../pods.js";',
    ].join("\n");
    const files = withFile("src/controllers/sub/x.ts", text);
    assert.deepEqual(checkLayers(files), [
      "src/controllers/sub/x.ts: imports src/api/types.ts deep; import src/api/index.ts instead",
    ]);
  });
});

describe("boundaryIndex", () => {
  it("names the index a deep import must use, and nothing for an allowed one", () => {
    const cases: [string, string, string | undefined][] = [
      ["src/node/a.ts", "src/api/pod.ts", "src/api/index.ts"],
      ["src/node/a.ts", "src/api/index.ts", undefined],
      ["src/node/a.ts", "src/node/b/c.ts", undefined],
      ["src/platform/apps/a/x.ts", "src/platform/apps/b/y.ts", "src/platform/apps/b/index.ts"],
      ["src/platform/apps/a/x.ts", "src/platform/apps/a/y/z.ts", undefined],
      ["src/platform/apps/a/x.ts", "src/platform/engine/module.ts", undefined],
      ["src/platform/admission.ts", "src/platform/apps/b/y.ts", undefined],
    ];
    for (const [from, to, want] of cases)
      assert.equal(boundaryIndex({ from, to }), want, `${from} -> ${to}`);
  });
});

describe("unreachableProblems", () => {
  const tree = () =>
    new Map([
      ["src/main/hearth.ts", 'import "../cli/index.js";\n'],
      ["src/cli/index.ts", 'import { x } from "../api/index.js";\nexport const y = x;\n'],
      ["src/api/index.ts", 'export { x } from "./x.js";\n'],
      ["src/api/x.ts", "export const x = 1;\n"],
      ["src/api/x.test.ts", 'import { f } from "./fixtures.js";\nimport { x } from "./x.js";\n'],
      ["test/support/env.ts", 'import { x } from "../../src/api/index.js";\n'],
    ]);

  it("accepts a tree where every source file is reached from src/main", () => {
    assert.deepEqual(unreachableProblems(tree()), []);
  });

  it("names a fixture only a test imports, and a file nothing imports", () => {
    const files = tree()
      .set("src/api/fixtures.ts", "export const f = 1;\n")
      .set("src/api/dead.ts", "export const d = 1;\n");
    assert.deepEqual(
      unreachableProblems(files).map((p) => p.split(":")[0]),
      ["src/api/dead.ts", "src/api/fixtures.ts"],
    );
  });

  it("does not follow a test file's imports, and counts type-only imports as links", () => {
    const files = tree()
      .set("src/api/types.ts", "export interface T {}\n")
      .set("src/api/x.ts", 'import type { T } from "./types.js";\nexport const x = 1;\n')
      .set("src/api/only-tested.ts", "export const o = 1;\n")
      .set("src/api/y.test.ts", 'import "./only-tested.js";\n');
    assert.deepEqual(
      unreachableProblems(files).map((p) => p.split(":")[0]),
      ["src/api/only-tested.ts"],
    );
  });
});
