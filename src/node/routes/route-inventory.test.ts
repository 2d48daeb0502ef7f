import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  readRouteInventory,
  removeRouteInventory,
  routeInventoryPath,
  writeRouteInventory,
} from "./route-inventory.js";

describe("the inventory of added routes", () => {
  it("round-trips without duplicates, and reads a missing or broken file as empty", () => {
    const dir = mkdtempSync(join(tmpdir(), "hearth-route-inv-"));
    try {
      const file = routeInventoryPath(dir);
      assert.deepEqual(readRouteInventory(file), []);
      const r = { cidr: "10.249.0.0/24", via: "10.250.0.2" };
      writeRouteInventory(file, [r, { ...r }, { cidr: "10.247.0.0/24", via: "10.250.0.3" }]);
      assert.deepEqual(readRouteInventory(file), [r, { cidr: "10.247.0.0/24", via: "10.250.0.3" }]);
      writeFileSync(file, "{not json");
      assert.deepEqual(readRouteInventory(file), []);
      removeRouteInventory(file);
      assert.deepEqual(readRouteInventory(file), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps only well-formed entries: a CIDR and a gateway address, nothing else reaches `ip`", () => {
    const dir = mkdtempSync(join(tmpdir(), "hearth-route-inv-"));
    try {
      const file = routeInventoryPath(dir);
      writeFileSync(
        file,
        JSON.stringify([
          { cidr: "10.249.0.0/24", via: "10.250.0.2" },
          { cidr: "10.249.0.0", via: "10.250.0.2" },
          { cidr: "10.249.0.0/24", via: "10.250.0.2/30" },
          { cidr: "10.249.0.0/24; rm -rf /", via: "10.250.0.2" },
          { cidr: 7, via: "10.250.0.2" },
          "10.248.0.0/24",
          null,
        ]),
      );
      assert.deepEqual(readRouteInventory(file), [{ cidr: "10.249.0.0/24", via: "10.250.0.2" }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
