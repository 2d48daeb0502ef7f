/** Resources shared by the openapi tests: two built-in kinds and a custom one. */
import { builtinSchemas, customResourceSchema } from "../schemas/index.js";
import type { OpenApiResource } from "./types.js";

export const configMaps: OpenApiResource = {
  group: "",
  version: "v1",
  kind: "ConfigMap",
  plural: "configmaps",
  namespaced: true,
  schema: builtinSchemas["/v1/ConfigMap"]!,
  subresources: [],
  strategicMergePatch: true,
};

export const namespaces: OpenApiResource = {
  group: "",
  version: "v1",
  kind: "Namespace",
  plural: "namespaces",
  namespaced: false,
  schema: builtinSchemas["/v1/Namespace"]!,
  subresources: ["status"],
  strategicMergePatch: true,
};

export const cronTabs: OpenApiResource = {
  group: "stable.example.com",
  version: "v1",
  kind: "CronTab",
  plural: "crontabs",
  namespaced: true,
  schema: customResourceSchema(
    { group: "stable.example.com", version: "v1", kind: "CronTab" },
    {
      type: "object",
      properties: {
        spec: {
          type: "object",
          description: "Desired schedule.",
          properties: { cronSpec: { type: "string", description: "Cron schedule." } },
        },
      },
    },
  ),
  subresources: ["status", "scale"],
  strategicMergePatch: false,
};

export const allResources = [configMaps, namespaces, cronTabs];
