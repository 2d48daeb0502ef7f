/**
 * core/v1 `Binding`, the body of POST `pods/<name>/binding`: metadata and the
 * target Node. Used to type-check the body before anything is read or written.
 */
import type { Schema } from "../../api/index.js";
import { kindSchema } from "./kind.js";
import { objectReference } from "./references.js";

export const bindingSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Binding" },
  "Binding ties one object to another; for example, a pod is bound to a node by a scheduler.",
  { target: objectReference("The target object that you want to bind to the standard object.") },
);
