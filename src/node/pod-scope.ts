/**
 * The scope of a node's pod informer: only the pods bound to it. The agent and
 * the Service rules (host ports) ask for the same scope, so one watch serves both.
 */
import type { Scope } from "../runtime/index.js";

export function podsOf(nodeName: string): { scope: Scope } {
  return { scope: { fieldSelector: `spec.nodeName=${nodeName}` } };
}
