/**
 * Kamaji's DataStore (`kamaji.clastix.io/v1alpha1`, cluster-scoped): where a
 * tenant control plane keeps its state — a driver (etcd, MySQL, PostgreSQL,
 * NATS), its endpoints, and the credentials to reach it, each a ContentRef
 * (inline `content` or a `secretReference{name, namespace, keyPath}`). The
 * Etcd app writes one per tenant with etcd. The schema keeps Kamaji's fields
 * and rules: the driver is immutable, etcd needs the CA's private key (Kamaji
 * signs each control plane's etcd client certificate with it) and a client
 * certificate; other drivers need TLS or basic auth.
 */
import type { KubeObject } from "../../api/index.js";
import { rootSchema } from "../definitions.js";

export const DATASTORE_GROUP = "kamaji.clastix.io";
export const DATASTORE_API_VERSION = `${DATASTORE_GROUP}/v1alpha1`;
export const DATASTORE_DRIVERS = ["etcd", "MySQL", "PostgreSQL", "NATS"] as const;

export type DataStoreDriver = (typeof DATASTORE_DRIVERS)[number];

/** Inline content, or a key of a Secret. */
export interface ContentRef {
  content?: string;
  secretReference?: { name: string; namespace: string; keyPath: string };
}

export interface DataStoreSpec {
  driver: DataStoreDriver;
  endpoints: string[];
  basicAuth?: { username: ContentRef; password: ContentRef };
  tlsConfig?: {
    certificateAuthority: { certificate: ContentRef; privateKey?: ContentRef };
    clientCertificate?: { certificate: ContentRef; privateKey: ContentRef };
  };
}

export interface DataStore extends KubeObject {
  spec: DataStoreSpec;
  status?: {
    usedBy?: string[];
    ready?: boolean;
    observedGeneration?: number;
    conditions?: unknown[];
  };
}

type Schema = Record<string, unknown>;

const contentRef: Schema = {
  type: "object",
  properties: {
    content: { type: "string", format: "byte" },
    secretReference: {
      type: "object",
      required: ["name", "namespace", "keyPath"],
      properties: {
        name: { type: "string", minLength: 1 },
        namespace: { type: "string", minLength: 1 },
        keyPath: { type: "string", minLength: 1 },
      },
    },
  },
  "x-kubernetes-validations": [
    {
      rule: "has(self.content) != has(self.secretReference)",
      message: "exactly one of content and secretReference must be set",
    },
  ],
};

const pair = (first: string, second: string): Schema => ({
  type: "object",
  required: [first, second],
  properties: { [first]: contentRef, [second]: contentRef },
});

const spec: Schema = {
  type: "object",
  required: ["driver", "endpoints"],
  properties: {
    driver: {
      type: "string",
      enum: [...DATASTORE_DRIVERS],
      "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "driver is immutable" }],
    },
    endpoints: {
      type: "array",
      minItems: 1,
      items: { type: "string", minLength: 1 },
      description: "host:port of each member (etcd) or of the server (SQL: only the first is used)",
    },
    basicAuth: pair("username", "password"),
    tlsConfig: {
      type: "object",
      required: ["certificateAuthority"],
      properties: {
        certificateAuthority: {
          type: "object",
          required: ["certificate"],
          properties: { certificate: contentRef, privateKey: contentRef },
        },
        clientCertificate: pair("certificate", "privateKey"),
      },
    },
  },
  "x-kubernetes-validations": [
    {
      rule: "self.driver != 'etcd' || (has(self.tlsConfig) && has(self.tlsConfig.certificateAuthority.privateKey) && has(self.tlsConfig.clientCertificate))",
      message:
        "the etcd driver needs tlsConfig with the CA's privateKey (to sign each control plane's client certificate) and a clientCertificate",
    },
    {
      rule: "self.driver == 'etcd' || has(self.tlsConfig) || has(self.basicAuth)",
      message: "the MySQL, PostgreSQL and NATS drivers need tlsConfig or basicAuth",
    },
  ],
};

export const DATASTORE_CRD: KubeObject = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `datastores.${DATASTORE_GROUP}` },
  spec: {
    group: DATASTORE_GROUP,
    scope: "Cluster",
    names: {
      kind: "DataStore",
      listKind: "DataStoreList",
      plural: "datastores",
      singular: "datastore",
    },
    versions: [
      {
        name: "v1alpha1",
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: "Driver", type: "string", jsonPath: ".spec.driver" },
          { name: "Ready", type: "boolean", jsonPath: ".status.ready" },
          { name: "Used By", type: "string", jsonPath: ".status.usedBy", priority: 1 },
          { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        ],
        schema: {
          openAPIV3Schema: rootSchema(
            { spec },
            {
              required: ["spec"],
              status: {
                usedBy: {
                  type: "array",
                  items: { type: "string" },
                  description: "the tenant control planes (namespace/name) that use this DataStore",
                },
                ready: { type: "boolean" },
                observedGeneration: { type: "integer" },
                conditions: {
                  type: "array",
                  items: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
                },
              },
            },
          ),
        },
      },
    ],
  },
};
