/**
 * The tenant context an app renders with. Every tenant namespace holds the
 * Secret `cozystack-values` (as in Cozystack) whose `values.yaml` carries
 * `_namespace` (host, etcd, ingress, monitoring, seaweedfs: the namespaces of the
 * nearest ancestors running each module) and `_cluster`.
 */
import { parse, stringify } from "yaml";
import type { KubeObject } from "../../api/index.js";
import { getOptional, type Reader } from "../../client/index.js";

export const VALUES_SECRET = "cozystack-values";
const VALUES_KEY = "values.yaml";

/** `_namespace` of `namespace`, or `{}` when it has no values Secret. */
export async function readContext(
  client: Pick<Reader, "get">,
  namespace: string,
): Promise<Record<string, string>> {
  const ref = { apiVersion: "v1", kind: "Secret", name: VALUES_SECRET, namespace };
  const secret = await getOptional(client, ref);
  if (!secret) return {};
  const data = (secret.data as Record<string, string> | undefined)?.[VALUES_KEY];
  if (!data) return {};
  const values = parse(Buffer.from(data, "base64").toString("utf8")) as
    | { _namespace?: Record<string, string> }
    | undefined;
  return { ...(values?._namespace ?? {}) };
}

/** The values Secret a tenant writes into its namespace. */
export function valuesSecret(
  namespace: string,
  context: { namespace: Record<string, string>; cluster: Record<string, string> },
): KubeObject {
  const values = stringify({ _cluster: context.cluster, _namespace: context.namespace });
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: VALUES_SECRET, namespace },
    type: "Opaque",
    data: { [VALUES_KEY]: Buffer.from(values, "utf8").toString("base64") },
  };
}
