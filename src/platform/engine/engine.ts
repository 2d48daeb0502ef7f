/**
 * The apps engine: one AppReconciler per app kind (an informer on the kind's
 * objects feeding a controller), and the definition controller, which serves
 * the kind of each stored ApplicationDefinition whose module exists as a CRD in
 * `apps.cozystack.io/v1alpha1` (owned by the definition) and reports on the
 * definition whether it is served. Definitions without a module are not served.
 */
import type { KubeObject } from "../../api/index.js";
import { type Client, EventRecorder, getOptional, isNotFound } from "../../client/index.js";
import {
  Controller,
  DONE,
  Informer,
  objectKey,
  type Reconciler,
  type Result,
  sameConditions,
  setCondition,
} from "../../runtime/index.js";
import {
  type ApplicationDefinition,
  crdFor,
  definitionProblem,
  PLATFORM_API_VERSION,
} from "../definitions.js";
import { AppReconciler, FIELD_MANAGER } from "./app-reconciler.js";
import { APPS_API_VERSION, type AppModule } from "./module.js";
import { TEARDOWN_STATUS_FIELDS } from "./teardown-progress.js";

export interface EngineOptions {
  /** `_cluster` for every app. */
  cluster?: Record<string, string>;
  log?(msg: string, err?: unknown): void;
}

export class AppsEngine {
  private readonly modules: Map<string, AppModule>;

  constructor(
    private readonly client: Client,
    modules: AppModule[],
    private readonly opts: EngineOptions = {},
  ) {
    this.modules = new Map(modules.map((m) => [m.definition.spec.application.kind, m]));
  }

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const log = this.opts.log ?? (() => {});
    const events = new EventRecorder(this.client, {
      component: "apps-engine",
      onError: (e) => log("apps engine: event", e),
    });
    const engine = {
      client: this.client,
      events,
      cluster: this.opts.cluster ?? {},
      appKinds: () => [...this.modules.keys()],
    };
    const loops: Promise<void>[] = [this.runDefinitions(signal, log)];
    for (const [kind, module] of this.modules) {
      const controller = new Controller(new AppReconciler(module, engine), {
        name: `app-${kind.toLowerCase()}`,
        workers: 2,
        onError: (key, err) => log(`${kind} ${key}`, err),
      });
      const informer = new Informer(this.client, {
        apiVersion: APPS_API_VERSION,
        kind,
        // The kind is served once its definition is reconciled; until then, retry.
        retryMs: 500,
        onError: (e) => {
          if (!isNotFound(e)) log(`${kind} informer`, e);
        },
      });
      const enqueue = (o: KubeObject) => controller.enqueue(objectKey(o));
      informer.addHandlers({ onAdd: enqueue, onUpdate: (_o, n) => enqueue(n), onDelete: enqueue });
      loops.push(informer.run(signal), controller.run(signal));
    }
    await Promise.all(loops);
    await events.flush();
  }

  private async runDefinitions(signal: AbortSignal, log: (m: string, e?: unknown) => void) {
    const controller = new Controller(new DefinitionReconciler(this.client, this.modules), {
      name: "application-definitions",
      onError: (key, err) => log(`ApplicationDefinition ${key}`, err),
    });
    const informer = new Informer(this.client, {
      apiVersion: PLATFORM_API_VERSION,
      kind: "ApplicationDefinition",
      retryMs: 500,
      onError: (e) => log("ApplicationDefinition informer", e),
    });
    informer.addHandlers({
      onAdd: (o) => controller.enqueue(o.metadata.name!),
      onUpdate: (_o, n) => controller.enqueue(n.metadata.name!),
    });
    await Promise.all([informer.run(signal), controller.run(signal)]);
  }
}

class DefinitionReconciler implements Reconciler {
  constructor(
    private readonly client: Client,
    private readonly modules: Map<string, AppModule>,
  ) {}

  async reconcile(_signal: AbortSignal, name: string): Promise<Result> {
    const def = await getOptional<ApplicationDefinition>(this.client, {
      apiVersion: PLATFORM_API_VERSION,
      kind: "ApplicationDefinition",
      name,
    });
    if (!def || def.metadata.deletionTimestamp) return DONE;
    const problem = definitionProblem(def);
    const module = this.modules.get(def.spec?.application?.kind);
    const hasModule = module !== undefined;
    if (!problem && hasModule) {
      const crd = crdFor(def, { ...TEARDOWN_STATUS_FIELDS, ...module.statusFields });
      crd.metadata.ownerReferences = [
        {
          apiVersion: PLATFORM_API_VERSION,
          kind: "ApplicationDefinition",
          name: def.metadata.name!,
          uid: def.metadata.uid!,
          controller: true,
        },
      ];
      await this.client.apply(crd, { fieldManager: FIELD_MANAGER, force: true });
    }
    const served = !problem && hasModule;
    const conditions = setCondition((def.status as { conditions?: [] } | undefined)?.conditions, {
      type: "Served",
      status: served ? "True" : "False",
      reason: problem ? "InvalidDefinition" : hasModule ? "Served" : "NoBackend",
      message:
        problem ??
        (hasModule
          ? `served as ${def.spec.application.plural}.apps.cozystack.io`
          : `${def.spec.application.kind} is not available in this version of Hearth`),
    });
    const old = (def.status as { conditions?: [] } | undefined)?.conditions;
    if (!sameConditions(conditions, old))
      await this.client.patchStatus(
        { apiVersion: PLATFORM_API_VERSION, kind: "ApplicationDefinition", name },
        { status: { conditions } },
        { type: "merge" },
      );
    return DONE;
  }
}
