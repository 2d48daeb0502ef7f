/**
 * How `hearth up` wires the platform in: the identities its parts use (the apps
 * engine as `system:hearth:platform`, the core controllers as
 * `system:hearth:controller-manager`, both system:masters with a fresh token per
 * start, so the tenant-namespace guardrail can tell them from a person), the
 * platform's admission checks inside the apiserver's chain, and the engine
 * itself on its own client.
 */
import { randomBytes } from "node:crypto";
import type { AdmissionPlugin } from "../apiserver/index.js";
import { createHttpClient, type HttpClient, type Reader } from "../client/index.js";
import { HEARTH_ROOT } from "../node/index.js";
import {
  AppAdmission,
  type ApplicationDefinition,
  assemble,
  COMPONENTS,
  CONTROLLER_MANAGER_USER,
  type Component,
  definitionsDir,
  loadDefinitions,
  PLATFORM_USER,
  runPlatform,
} from "../platform/index.js";
import type { Cache } from "../runtime/index.js";

export interface PlatformIdentities {
  platformToken: string;
  controllerToken: string;
  /** token → username, for the apiserver's system:masters token table. */
  tokens: [string, string][];
}

export function platformIdentities(): PlatformIdentities {
  const platformToken = randomBytes(32).toString("hex");
  const controllerToken = randomBytes(32).toString("hex");
  return {
    platformToken,
    controllerToken,
    tokens: [
      [platformToken, PLATFORM_USER],
      [controllerToken, CONTROLLER_MANAGER_USER],
    ],
  };
}

/** The platform's checks on app objects as an admission plugin; reads through `client()`. */
export function platformAdmission(
  client: () => Reader | undefined,
  definitions: ReadonlyMap<string, ApplicationDefinition>,
  components: readonly Component[] = COMPONENTS,
): AdmissionPlugin {
  const apps = AppAdmission.of(client, assemble(components, definitions));
  return {
    name: "HearthApplications",
    async validate(attrs) {
      await apps.validate({
        operation: attrs.operation,
        group: attrs.type.group,
        kind: attrs.type.kind,
        subresource: attrs.subresource,
        namespace: attrs.namespace,
        name: attrs.name,
        object: attrs.object,
        oldObject: attrs.oldObject,
      });
      return [];
    },
  };
}

export interface StartedPlatform {
  client: HttpClient;
  /** Resolves once tenant-root and its Tenant exist. */
  ready: Promise<void>;
  done: Promise<void>;
}

/** The checked-in ApplicationDefinitions of this checkout. */
export function checkedInDefinitions(): Map<string, ApplicationDefinition> {
  return loadDefinitions(definitionsDir(HEARTH_ROOT));
}

/** Bootstraps the platform and runs the apps engine until `signal` aborts. */
export function startPlatform(
  server: string,
  caPem: string,
  token: string,
  signal: AbortSignal,
  opts: {
    definitions: Map<string, ApplicationDefinition>;
    rootHost?: string;
    log(msg: string, err?: unknown): void;
    info?(msg: string): void;
    sharedCache?: Cache;
  },
): StartedPlatform {
  const client = createHttpClient({ server, caPem, token, userAgent: "hearth-platform" });
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => {
    onReady = resolve;
  });
  const done = runPlatform(client, signal, {
    definitions: opts.definitions,
    cluster: { "root-host": opts.rootHost ?? "" },
    log: opts.log,
    ...(opts.info ? { info: opts.info } : {}),
    onReady,
    ...(opts.sharedCache ? { sharedCache: opts.sharedCache } : {}),
  }).catch((e: unknown) => {
    if (!signal.aborted) opts.log("platform stopped", e);
  });
  return { client, ready: Promise.race([ready, done]), done };
}
