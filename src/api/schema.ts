/**
 * OpenAPI v3 schema objects (apiextensions `JSONSchemaProps`) with the Kubernetes
 * extensions that drive validation, pruning, strategic merge patch and
 * server-side apply. Built-in kinds and CRDs describe themselves with these.
 */

export interface Schema {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean";
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  /** For maps: the schema of every value (`true` = anything). */
  additionalProperties?: Schema | boolean;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  /** Open-API `$ref` to `#/components/schemas/<name>` (only in served documents). */
  $ref?: string;
  "x-kubernetes-preserve-unknown-fields"?: boolean;
  "x-kubernetes-embedded-resource"?: boolean;
  "x-kubernetes-int-or-string"?: boolean;
  "x-kubernetes-list-type"?: "atomic" | "set" | "map";
  "x-kubernetes-list-map-keys"?: string[];
  "x-kubernetes-map-type"?: "atomic" | "granular";
  /** Strategic merge patch: `merge`, `replace`, `retainKeys`, or `merge,retainKeys`. */
  "x-kubernetes-patch-strategy"?: string;
  "x-kubernetes-patch-merge-key"?: string;
  "x-kubernetes-validations"?: {
    rule: string;
    message?: string;
    messageExpression?: string;
    reason?: string;
    fieldPath?: string;
    optionalOldSelf?: boolean;
  }[];
  "x-kubernetes-group-version-kind"?: { group: string; version: string; kind: string }[];
  [extension: `x-${string}`]: unknown;
}
