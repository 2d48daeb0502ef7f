import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
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

  it("are flags this Node accepts", () => {
    for (const f of NODE_FLAGS)
      assert.ok(process.allowedNodeEnvironmentFlags.has(f.split("=")[0]!), f);
  });
});
