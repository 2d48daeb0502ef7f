/**
 * What the platform derives from its list of components: the definitions it
 * applies, which tenant modules have a backend, the app modules the engine
 * serves, and the admission rules by kind. Pure functions of the list, so the
 * apiserver's admission and the engine agree on what is served.
 */
import type { AdmissionRule, Component, ComponentContext } from "./component.js";
import { type ApplicationDefinition, isModule } from "./definitions.js";
import type { AppModule } from "./engine/module.js";

/** A list of components with the context they were assembled with. */
export interface AssembledPlatform {
  components: readonly Component[];
  ctx: ComponentContext;
}

/** `components` on the checked-in definitions (and those they bring). */
export function assemble(
  components: readonly Component[],
  checkedIn: ReadonlyMap<string, ApplicationDefinition>,
): AssembledPlatform {
  return { components, ctx: componentContext(components, allDefinitions(components, checkedIn)) };
}

/** The checked-in definitions, plus those components bring for their own apps. */
export function allDefinitions(
  components: readonly Component[],
  checkedIn: ReadonlyMap<string, ApplicationDefinition>,
): Map<string, ApplicationDefinition> {
  const out = new Map(checkedIn);
  for (const c of components)
    for (const app of c.apps ?? []) if (app.definition) out.set(app.kind, app.definition);
  return out;
}

function definitionOf(
  kind: string,
  definitions: ReadonlyMap<string, ApplicationDefinition>,
): ApplicationDefinition {
  const def = definitions.get(kind);
  if (!def) throw new Error(`no ApplicationDefinition for ${kind}`);
  return def;
}

/** The context every component gets; `definitions` as `allDefinitions` answers. */
export function componentContext(
  components: readonly Component[],
  definitions: ReadonlyMap<string, ApplicationDefinition>,
): ComponentContext {
  const servedModules = new Set<string>();
  for (const c of components)
    for (const app of c.apps ?? [])
      if (isModule(definitionOf(app.kind, definitions))) servedModules.add(app.kind);
  return { definitions, servedModules };
}

/** Every app module of the list, built on its definition. */
export function appModules(components: readonly Component[], ctx: ComponentContext): AppModule[] {
  return components.flatMap((c) =>
    (c.apps ?? []).map((app) => app.module(definitionOf(app.kind, ctx.definitions), ctx)),
  );
}

/** The admission rules of the list, by app kind. */
export function admissionRules(components: readonly Component[]): Map<string, AdmissionRule[]> {
  const out = new Map<string, AdmissionRule[]>();
  for (const c of components)
    for (const rule of c.admission ?? []) out.set(rule.kind, [...(out.get(rule.kind) ?? []), rule]);
  return out;
}
