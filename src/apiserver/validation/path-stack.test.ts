/** Lazily rendered field paths. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PathStack } from "./path-stack.js";
import { childPath, indexPath } from "./schema-nav.js";

describe("PathStack", () => {
  it("renders keys with dots and indexes with brackets, as childPath/indexPath", () => {
    const at = new PathStack();
    assert.equal(at.render(), "");
    at.push("spec");
    at.push("items");
    at.push(0);
    at.push("name");
    assert.equal(at.render(), "spec.items[0].name");
    assert.equal(
      at.render(),
      childPath(indexPath(childPath(childPath("", "spec"), "items"), 0), "name"),
    );
    at.pop();
    at.pop();
    at.push(12);
    assert.equal(at.render(), "spec.items[12]");
  });

  it("renders a list at the root and empty keys like the string builders", () => {
    const at = new PathStack();
    at.push(3);
    assert.equal(at.render(), "[3]");
    at.pop();
    at.push("");
    at.push("metadata");
    assert.equal(at.render(), childPath(childPath("", ""), "metadata"));
  });

  it("is a function that can be handed on and called later", () => {
    const at = new PathStack();
    const render = at.render;
    at.push("a");
    assert.equal(render(), "a");
  });
});
