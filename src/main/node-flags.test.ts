import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { findSpec } from "../images/index.js";
import { NODE_FLAGS } from "./node-flags.js";

const script = fileURLToPath(new URL("../../../hearth", import.meta.url));

describe("NODE_FLAGS", () => {
  it("is the list the hearth script runs the CLI with", () => {
    const text = readFileSync(script, "utf8");
    const m = /^node_flags=\((.*)\)$/m.exec(text);
    assert.ok(m, "the hearth script has no node_flags=(…) line");
    assert.deepEqual(m[1]!.trim().split(/\s+/), [...NODE_FLAGS]);
    assert.match(text, /exec node "\$\{node_flags\[@\]\}" dist\/src\/main\/hearth\.js/);
  });

  it("is the list the hearth image's entrypoint runs the CLI with", () => {
    assert.deepEqual(findSpec("hearth:dev")?.config.entrypoint, [
      "/usr/local/bin/node",
      ...NODE_FLAGS,
      "/opt/hearth/dist/src/main/hearth.js",
    ]);
  });

  it("are flags this Node accepts", () => {
    for (const f of NODE_FLAGS)
      assert.ok(process.allowedNodeEnvironmentFlags.has(f.split("=")[0]!), f);
  });
});
