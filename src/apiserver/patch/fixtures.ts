/**
 * Small inline schemas for the patch tests: ObjectMeta with kube's list
 * extensions (finalizers a merge set, ownerReferences merged by uid), a
 * Namespace, a ConfigMap and a Deployment-like workload whose containers, ports,
 * volumes and strategy exercise every patch strategy.
 */
import type { Schema } from "../../api/index.js";

const str: Schema = { type: "string" };
const int: Schema = { type: "integer" };
const stringMap: Schema = { type: "object", additionalProperties: str };

export const objectMetaSchema: Schema = {
  type: "object",
  properties: {
    name: str,
    namespace: str,
    uid: str,
    resourceVersion: str,
    generation: int,
    creationTimestamp: str,
    labels: stringMap,
    annotations: stringMap,
    finalizers: {
      type: "array",
      items: str,
      "x-kubernetes-list-type": "set",
      "x-kubernetes-patch-strategy": "merge",
    },
    ownerReferences: {
      type: "array",
      items: {
        type: "object",
        properties: {
          apiVersion: str,
          kind: str,
          name: str,
          uid: str,
          controller: { type: "boolean" },
        },
        "x-kubernetes-map-type": "atomic",
      },
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["uid"],
      "x-kubernetes-patch-strategy": "merge",
      "x-kubernetes-patch-merge-key": "uid",
    },
    managedFields: {
      type: "array",
      items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
    },
  },
};

const envelope = { apiVersion: str, kind: str, metadata: objectMetaSchema };

export const namespaceSchema: Schema = {
  type: "object",
  properties: {
    ...envelope,
    spec: { type: "object", properties: { finalizers: { type: "array", items: str } } },
    status: { type: "object", properties: { phase: str } },
  },
};

export const configMapSchema: Schema = {
  type: "object",
  properties: { ...envelope, data: stringMap },
};

const container: Schema = {
  type: "object",
  required: ["name"],
  properties: {
    name: str,
    image: str,
    args: { type: "array", items: str },
    ports: {
      type: "array",
      items: {
        type: "object",
        properties: { containerPort: int, protocol: { type: "string", default: "TCP" }, name: str },
      },
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["containerPort", "protocol"],
      "x-kubernetes-patch-strategy": "merge",
      "x-kubernetes-patch-merge-key": "containerPort",
    },
    env: {
      type: "array",
      items: { type: "object", properties: { name: str, value: str } },
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      "x-kubernetes-patch-strategy": "merge",
      "x-kubernetes-patch-merge-key": "name",
    },
  },
};

const volume: Schema = {
  type: "object",
  properties: {
    name: str,
    emptyDir: { type: "object", properties: { medium: str } },
    hostPath: { type: "object", properties: { path: str } },
  },
};

export const workloadSchema: Schema = {
  type: "object",
  properties: {
    ...envelope,
    spec: {
      type: "object",
      properties: {
        replicas: int,
        paused: { type: "boolean" },
        selector: { type: "object", additionalProperties: str, "x-kubernetes-map-type": "atomic" },
        strategy: {
          type: "object",
          properties: {
            type: str,
            rollingUpdate: { type: "object", properties: { maxSurge: int, maxUnavailable: int } },
          },
          "x-kubernetes-patch-strategy": "retainKeys",
        },
        containers: {
          type: "array",
          items: container,
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          "x-kubernetes-patch-strategy": "merge",
          "x-kubernetes-patch-merge-key": "name",
        },
        volumes: {
          type: "array",
          items: volume,
          "x-kubernetes-list-type": "map",
          "x-kubernetes-list-map-keys": ["name"],
          "x-kubernetes-patch-strategy": "merge,retainKeys",
          "x-kubernetes-patch-merge-key": "name",
        },
        tags: {
          type: "array",
          items: str,
          "x-kubernetes-list-type": "set",
          "x-kubernetes-patch-strategy": "merge",
        },
        args: { type: "array", items: str },
      },
    },
  },
};
