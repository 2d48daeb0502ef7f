import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { sendError } from "./http/respond.js";
import { HealthChecks, type HealthEndpoints, serveHealth } from "./readiness.js";

describe("health endpoints in kube-apiserver's format", () => {
  let server: Server;
  let base: string;
  let platformReason: string | undefined = "Tenant is not in /openapi/v2 yet";
  const health: HealthEndpoints = {
    healthz: new HealthChecks(),
    livez: new HealthChecks(),
    readyz: new HealthChecks(),
  };
  for (const checks of [health.healthz, health.livez, health.readyz])
    checks.add("ping", () => undefined);
  health.readyz.add("platform-kinds", () => platformReason);
  health.readyz.add("thrower", () => {
    throw new Error("boom");
  });

  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      serveHealth(health, url.pathname, url.searchParams, res).catch((e) => sendError(res, e));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, text: await res.text(), type: res.headers.get("content-type") };
  };

  it("lists every check with the failing ones withheld, a 500 ending 'readyz check failed'", async () => {
    const r = await get("/readyz");
    assert.equal(r.status, 500);
    assert.equal(r.type, "text/plain; charset=utf-8");
    assert.equal(
      r.text,
      "[+]ping ok\n[-]platform-kinds failed: reason withheld\n[-]thrower failed: reason withheld\nreadyz check failed\n",
    );
  });

  it("excludes checks by name and warns about names it does not have", async () => {
    const r = await get("/readyz?verbose&exclude=thrower&exclude=platform-kinds&exclude=etcd");
    assert.equal(r.status, 200);
    assert.equal(
      r.text,
      '[+]ping ok\n[+]platform-kinds excluded: ok\n[+]thrower excluded: ok\nwarn: some health checks cannot be excluded: no matches for "etcd"\nreadyz check passed\n',
    );
    assert.equal((await get("/readyz?exclude=thrower&exclude=platform-kinds")).text, "ok");
  });

  it("passes once every check passes: 'ok', or the list with ?verbose", async () => {
    platformReason = undefined;
    try {
      assert.deepEqual(await get("/readyz?exclude=thrower"), {
        status: 200,
        text: "ok",
        type: "text/plain; charset=utf-8",
      });
      const verbose = await get("/readyz?verbose=1&exclude=thrower");
      assert.equal(
        verbose.text,
        "[+]ping ok\n[+]platform-kinds ok\n[+]thrower excluded: ok\nreadyz check passed\n",
      );
    } finally {
      platformReason = "Tenant is not in /openapi/v2 yet";
    }
  });

  it("answers one check at /readyz/<name>, with the reason when it fails", async () => {
    assert.deepEqual(await get("/readyz/ping"), {
      status: 200,
      text: "ok",
      type: "text/plain; charset=utf-8",
    });
    const failed = await get("/readyz/platform-kinds");
    assert.equal(failed.status, 500);
    assert.equal(failed.text, "internal server error: Tenant is not in /openapi/v2 yet\n");
    assert.equal((await get("/readyz/thrower")).text, "internal server error: boom\n");
    assert.equal((await get("/readyz/nonesuch")).status, 404);
  });

  it("keeps /livez and /healthz to their own checks", async () => {
    assert.equal((await get("/livez")).text, "ok");
    assert.equal((await get("/livez?verbose")).text, "[+]ping ok\nlivez check passed\n");
    assert.equal((await get("/healthz?verbose")).text, "[+]ping ok\nhealthz check passed\n");
    assert.equal((await get("/livez/platform-kinds")).status, 404);
  });
});
