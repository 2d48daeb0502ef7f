/**
 * The server the fuzz suite attacks: an apiserver in this process on a fresh
 * SQLite file, over plain HTTP, set up as `hearth up` sets up its apiserver —
 * static tokens (an admin in system:masters, a user with no rights), RBAC with
 * kube's bootstrap policy, the platform's admission plugin and bootstrap
 * (ApplicationDefinitions, tenant roles, guardrails, tenant-root), the app kinds'
 * CRDs as the apps engine serves them — plus the CronTab and Widget CRDs of
 * test/fixtures. No controller runs: once `startFuzzTarget` returns, only
 * requests write, so a revision that moves during a refused request is that
 * request's write.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import YAML from "yaml";
import { ApiServer } from "../../../src/apiserver/index.js";
import { platformAdmission } from "../../../src/cli/platform.js";
import { createHttpClient, type HttpClient } from "../../../src/client/index.js";
import { bootstrapPlatform } from "../../../src/platform/bootstrap.js";
import {
  assemble,
  COMPONENTS,
  crdFor,
  definitionsDir,
  loadDefinitions,
} from "../../../src/platform/index.js";
import type { Backend } from "../../../src/storage/index.js";
import { openSqliteBackend } from "../../../src/storage/index.js";
import { REPO_ROOT } from "../hearth-process.js";
import { ADMIN_TOKEN, NOBODY_TOKEN, NOBODY_USER } from "./catalogue.js";

export interface FuzzTarget {
  url: string;
  backend: Backend;
  /** A client as the admin, for setting up and repairing sentinels. */
  admin: HttpClient;
  stop(): Promise<void>;
}

export async function startFuzzTarget(): Promise<FuzzTarget> {
  const dir = mkdtempSync(join(tmpdir(), "hearth-fuzz-"));
  const backend = await openSqliteBackend(join(dir, "state.db"));
  const definitions = loadDefinitions(definitionsDir(REPO_ROOT));
  let admin: HttpClient | undefined;
  const server = new ApiServer({
    backend,
    tokens: new Map([[ADMIN_TOKEN, "fuzz-admin"]]),
    tokenUsers: new Map([[NOBODY_TOKEN, { username: NOBODY_USER, groups: [] }]]),
    rbac: true,
    port: 0,
    // HEARTH_FUZZ_LOG=1 shows what the server logs (an internal error's stack, say).
    ...(process.env.HEARTH_FUZZ_LOG
      ? { log: (msg: string, err?: unknown) => console.error(msg, err ?? "") }
      : {}),
    admission: [platformAdmission(() => admin, definitions)],
  });
  const controller = new AbortController();
  await server.start(controller.signal);
  const url = `http://127.0.0.1:${server.port}`;
  admin = createHttpClient({ server: url, token: ADMIN_TOKEN, userAgent: "hearth-fuzz-setup" });
  const client = admin;
  const stop = async () => {
    client.close();
    controller.abort();
    await server.closed();
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await bootstrapPlatform(client, assemble(COMPONENTS, definitions), controller.signal);
    const crds = [
      ...["Tenant", "Etcd"].map((kind) => crdFor(definitions.get(kind)!)),
      ...["crontab-crd.yaml", "widget-crd.yaml"].map((f) =>
        YAML.parse(readFileSync(join(REPO_ROOT, "test/fixtures", f), "utf8")),
      ),
    ];
    for (const crd of crds) await client.apply(crd, { fieldManager: "hearth-fuzz", force: true });
    for (const [apiVersion, kind] of [
      ["apps.cozystack.io/v1alpha1", "Tenant"],
      ["apps.cozystack.io/v1alpha1", "Etcd"],
      ["stable.example.com/v1", "CronTab"],
      ["rules.example.com/v1", "Widget"],
    ] as const)
      await served(client, apiVersion, kind);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, backend, admin: client, stop };
}

/** Resolves once a CRD's kind answers a list; a deadline keeps a broken CRD from hanging. */
async function served(client: HttpClient, apiVersion: string, kind: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await client.list({ apiVersion, kind }, { namespace: "default" });
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`${kind} is not served: ${String(e)}`);
      await new Promise((r) => setImmediate(r));
    }
  }
}
