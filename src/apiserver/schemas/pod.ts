/**
 * core/v1 Pod: a PodSpec subset the node agent runs (`pod-spec.ts`) and the
 * PodStatus it reports (`pod-status.ts`).
 */
import type { Schema } from "../../api/index.js";
import { kindSchema } from "./kind.js";
import { podSpec } from "./pod-spec.js";
import { podStatus } from "./pod-status.js";

export const podSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Pod" },
  "Pod is a collection of containers that can run on a host. This resource is created by clients and scheduled onto hosts.",
  {
    spec: {
      ...podSpec,
      description:
        "Specification of the desired behavior of the pod. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
    status: {
      ...podStatus,
      description:
        "Most recently observed status of the pod. This data may not be up to date. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
    },
  },
);
