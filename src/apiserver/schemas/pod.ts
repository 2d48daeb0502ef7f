/**
 * core/v1 Pod, for now with open `spec` and `status`: the namespace controller
 * orders deletion around pods (KEP-5080) before the node agent runs them. The full
 * PodSpec schema comes with the node agent.
 */
import type { Schema } from "../../api/schema.js";
import { kindSchema } from "./kind.js";

const open = (description: string): Schema => ({
  type: "object",
  description,
  "x-kubernetes-preserve-unknown-fields": true,
});

export const podSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Pod" },
  "Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.",
  {
    spec: open("Specification of the desired behavior of the pod."),
    status: open("Most recently observed status of the pod."),
  },
);
