/**
 * How the apiserver reaches a node's agent (the kubelet's port): the one
 * place that turns a Node object into an address, a port and credentials,
 * and opens a request to it. The pods/log proxy and the metrics API both go
 * through here, so a change of transport (HTTPS with the apiserver's client
 * certificate) is made once. The agent is found at the Node's InternalIP and
 * `status.daemonEndpoints.kubeletEndpoint.Port` (kube's `--kubelet-port`
 * default when the Node publishes none), and is given the bearer token the
 * agent published in the Node's annotations.
 */
import http from "node:http";
import { ApiError, NODE_LOG_TOKEN_ANNOTATION, type Node, NotFoundError } from "../api/index.js";
import type { ResourceRegistry } from "./resources/registry.js";
import type { ObjectStore } from "./store/object-store.js";

/** kube-apiserver's `--kubelet-port` default. */
const KUBELET_DEFAULT_PORT = 10250;

export interface NodeConnection {
  nodeName: string;
  address: string;
  port: number;
  token: string;
}

/**
 * Where `node`'s agent serves. A node with no address to reach fails as
 * kube's GetConnectionInfo does: a plain error, which the handler answers as
 * a 500 of reason Unknown (ErrorToAPIStatus).
 */
export function nodeConnectionOf(node: Node): NodeConnection {
  const addresses = node.status?.addresses ?? [];
  const address = addresses.find((a) => a.type === "InternalIP")?.address;
  if (!address)
    throw new ApiError(
      500,
      "Unknown",
      `no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(" ")}]`,
    );
  return {
    nodeName: node.metadata.name ?? "",
    address,
    port: node.status?.daemonEndpoints?.kubeletEndpoint?.Port || KUBELET_DEFAULT_PORT,
    token: node.metadata.annotations?.[NODE_LOG_TOKEN_ANNOTATION] ?? "",
  };
}

/** Where the agent of the Node named `nodeName` serves; NotFound when there is no such Node. */
export async function nodeConnection(
  server: { registry: ResourceRegistry; store: ObjectStore },
  nodeName: string,
): Promise<NodeConnection> {
  const nodeType = server.registry.lookup("", "v1", "nodes");
  const node = nodeType
    ? ((await server.store.tryGet(nodeType, undefined, nodeName)) as Node | undefined)
    : undefined;
  if (!node) throw new NotFoundError({ group: "", resource: "nodes", name: nodeName });
  return nodeConnectionOf(node);
}

/** The URL of `path` on the agent, as messages name it. */
export function agentUrl(c: NodeConnection, path: string): string {
  return `http://${c.address}:${c.port}${path}`;
}

/** A GET of `path` on the agent, not yet sent (the caller listens, then calls `end()`). */
export function agentRequest(
  c: NodeConnection,
  path: string,
  signal: AbortSignal,
): http.ClientRequest {
  return http.request({
    host: c.address,
    port: c.port,
    path,
    method: "GET",
    headers: { authorization: `Bearer ${c.token}` },
    signal,
  });
}

/** A GET of `path` on the agent, its status and whole body. */
export function agentGet(
  c: NodeConnection,
  path: string,
  signal: AbortSignal,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = agentRequest(c, path, signal);
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (b: Buffer) => chunks.push(b));
      res.on("error", reject);
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.end();
  });
}
