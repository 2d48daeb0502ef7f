/**
 * The apps engine on the platform's Manager: one controller per app kind
 * (`for(kind)`, woken by its children's events, `child-watch.ts`) running the
 * AppReconciler, and the ApplicationDefinition controller, which serves each
 * app kind as a CRD (`definition-reconciler.ts`).
 */
import { EventRecorder } from "../../client/index.js";
import type { Manager } from "../../runtime/index.js";
import { flushOnStop } from "../events-runnable.js";
import { AppReconciler } from "./app-reconciler.js";
import { watchChildren } from "./child-watch.js";
import { DEFINITION_TYPE, DefinitionReconciler } from "./definition-reconciler.js";
import type { EngineContext } from "./engine-context.js";
import { NAMESPACE_TYPE } from "./engine-reads.js";
import { APPS_API_VERSION, type AppModule } from "./module.js";

export interface EngineOptions {
  /** `_cluster` for every app. */
  cluster?: Record<string, string>;
  log?(msg: string, err?: unknown): void;
}

/** Long enough for a hook at its own deadline (60 s) and the API calls around it. */
const APP_RECONCILE_DEADLINE_MS = 5 * 60_000;

export class AppsEngine {
  private readonly modules: Map<string, AppModule>;

  constructor(
    modules: AppModule[],
    private readonly opts: EngineOptions = {},
  ) {
    this.modules = new Map(modules.map((m) => [m.definition.spec.application.kind, m]));
  }

  /** Builds the engine's controllers on `manager`; they run with it. */
  register(manager: Manager): void {
    const log = this.opts.log ?? (() => {});
    const events = new EventRecorder(manager.client, {
      component: "apps-engine",
      onError: (e) => log("apps engine: event", e),
    });
    const engine: EngineContext = {
      client: manager.client,
      cache: manager.cache,
      events,
      cluster: this.opts.cluster ?? {},
      appKinds: () => [...this.modules.keys()],
    };
    // Every app's render reads its Namespace: one informer of them all (the
    // namespace controller's, on a shared cache) serves the engine.
    manager.cache.informer(NAMESPACE_TYPE);
    manager
      .controller("application-definitions")
      .for(DEFINITION_TYPE)
      .complete(new DefinitionReconciler(manager.client, manager.cache, this.modules));
    for (const [kind, module] of this.modules) {
      const type = { apiVersion: APPS_API_VERSION, kind };
      const builder = manager
        .controller(`app-${kind.toLowerCase()}`)
        .for(type)
        .workers(2)
        .deadline(APP_RECONCILE_DEADLINE_MS);
      watchChildren(builder, manager.cache, type, module).complete(
        new AppReconciler(module, engine),
      );
    }
    manager.add(flushOnStop(events));
  }
}
