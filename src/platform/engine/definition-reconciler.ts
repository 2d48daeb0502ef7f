/**
 * The ApplicationDefinition controller's reconciler: serves the kind of each
 * stored definition whose module exists as a CRD in `apps.cozystack.io/v1alpha1`
 * (owned by the definition) and reports on the definition whether it is
 * served (`Served`). Definitions without a module are not served.
 */
import { type Client, getOptional, type Reader } from "../../client/index.js";
import {
  DONE,
  type Request,
  type Result,
  sameConditions,
  setCondition,
  type TypedReconciler,
} from "../../runtime/index.js";
import {
  type ApplicationDefinition,
  crdFor,
  definitionProblem,
  PLATFORM_API_VERSION,
} from "../definitions.js";
import { FIELD_MANAGER } from "./app-reconciler.js";
import type { AppModule } from "./module.js";
import { TEARDOWN_STATUS_FIELDS } from "./teardown-progress.js";

export const DEFINITION_TYPE = { apiVersion: PLATFORM_API_VERSION, kind: "ApplicationDefinition" };

export class DefinitionReconciler implements TypedReconciler {
  /** `reader` may be the Manager's cache: applying the CRD and the status are idempotent. */
  constructor(
    private readonly client: Client,
    private readonly reader: Pick<Reader, "get">,
    private readonly modules: ReadonlyMap<string, AppModule>,
  ) {}

  async reconcile({ name }: Request): Promise<Result> {
    const def = await getOptional<ApplicationDefinition>(this.reader, {
      ...DEFINITION_TYPE,
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
    const old = (def.status as { conditions?: [] } | undefined)?.conditions;
    const conditions = setCondition(old, {
      type: "Served",
      status: served ? "True" : "False",
      reason: problem ? "InvalidDefinition" : hasModule ? "Served" : "NoBackend",
      message:
        problem ??
        (hasModule
          ? `served as ${def.spec.application.plural}.apps.cozystack.io`
          : `${def.spec.application.kind} is not available in this version of Hearth`),
    });
    if (!sameConditions(conditions, old))
      await this.client.patchStatus(
        { ...DEFINITION_TYPE, name },
        { status: { conditions } },
        { type: "merge" },
      );
    return DONE;
  }
}
