/**
 * How the apiserver reaches a node agent's API (kube's
 * `GetConnectionInfo` and `--kubelet-client-certificate`): the Node's
 * InternalIP and `status.daemonEndpoints.kubeletEndpoint.Port`; over HTTPS
 * with the apiserver's client certificate (the agent's serving certificate
 * checked against the cluster CA) when the server has one, unless the Node
 * still publishes a bearer token (an agent serving plain HTTP: tests and
 * `hearth node` without the cluster's PKI). One function for every caller
 * (logs, exec, attach, port-forward, stats).
 */
import http from "node:http";
import https from "node:https";
import { ApiError, NODE_LOG_TOKEN_ANNOTATION, type Node, NotFoundError } from "../../api/index.js";
import type { RequestContext } from "../handlers/context.js";

/** kube-apiserver's `--kubelet-port` default. */
const KUBELET_DEFAULT_PORT = 10250;

export interface NodeConnection {
  address: string;
  port: number;
  scheme: "http" | "https";
  /** Starts a request to `path` on the agent; the caller ends it. */
  request(
    path: string,
    o: { method: string; headers?: http.OutgoingHttpHeaders },
  ): http.ClientRequest;
}

export async function nodeConnection(
  ctx: RequestContext,
  nodeName: string,
): Promise<NodeConnection> {
  const nodeType = ctx.server.registry.lookup("", "v1", "nodes");
  const node = nodeType
    ? ((await ctx.server.store.tryGet(nodeType, undefined, nodeName)) as Node | undefined)
    : undefined;
  if (!node) throw new NotFoundError({ group: "", resource: "nodes", name: nodeName });
  const addresses = node.status?.addresses ?? [];
  const address = addresses.find((a) => a.type === "InternalIP")?.address;
  // kube's GetConnectionInfo: a node with no address to reach fails with a
  // plain error, which the handler answers as a 500 of reason Unknown
  // (ErrorToAPIStatus); a node that publishes no port is reached at the
  // kubelet's default one.
  if (!address)
    throw new ApiError(
      500,
      "Unknown",
      `no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(" ")}]`,
    );
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port || KUBELET_DEFAULT_PORT;
  const token = node.metadata.annotations?.[NODE_LOG_TOKEN_ANNOTATION] ?? "";
  const client = ctx.server.nodeClient;
  const signal = ctx.server.signal;
  if (token || !client)
    return {
      address,
      port,
      scheme: "http",
      request: (path, o) =>
        http.request({
          host: address,
          port,
          path,
          method: o.method,
          headers: { ...o.headers, authorization: `Bearer ${token}` },
          signal,
        }),
    };
  return {
    address,
    port,
    scheme: "https",
    request: (path, o) =>
      https.request({
        host: address,
        port,
        path,
        method: o.method,
        headers: o.headers ?? {},
        cert: client.certPem,
        key: client.keyPem,
        ca: client.caPem,
        agent: false,
        signal,
      }),
  };
}
