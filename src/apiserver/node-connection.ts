/**
 * How the apiserver reaches a node agent's API (kube's `GetConnectionInfo`
 * and `--kubelet-client-certificate`): the one place that turns a Node
 * object into an address, a port and credentials, and opens a request to it,
 * for every caller (logs, exec, attach, port-forward, nodes/proxy, the
 * metrics API). The agent is found at the Node's InternalIP and
 * `status.daemonEndpoints.kubeletEndpoint.Port` (kube's `--kubelet-port`
 * default when the Node publishes none). It is reached over HTTPS with the
 * apiserver's client certificate (the agent's serving certificate checked
 * against the cluster CA) when the server has one, unless the Node still
 * publishes a bearer token (an agent serving plain HTTP: `hearth node`
 * without the cluster's PKI).
 */
import http from "node:http";
import https from "node:https";
import {
  ApiError,
  NODE_API_CA_ANNOTATION,
  NODE_LOG_TOKEN_ANNOTATION,
  type Node,
  NotFoundError,
} from "../api/index.js";
import type { ResourceRegistry } from "./resources/registry.js";
import type { ObjectStore } from "./store/object-store.js";

/** kube-apiserver's `--kubelet-port` default. */
const KUBELET_DEFAULT_PORT = 10250;

/** kube's `--kubelet-client-certificate`/`-key` and `--kubelet-certificate-authority`. */
export interface NodeClientTls {
  certPem: string;
  keyPem: string;
  caPem: string;
}

export interface NodeConnection {
  nodeName: string;
  address: string;
  port: number;
  scheme: "http" | "https";
  /** The bearer token sent over HTTP; "" over HTTPS. */
  token: string;
  /** Starts a request to `path` on the agent (ended by `signal`, else the server's stop); the caller ends it. */
  request(
    path: string,
    o: { method: string; headers?: http.OutgoingHttpHeaders; signal?: AbortSignal },
  ): http.ClientRequest;
}

/**
 * Where `node`'s agent serves, and how to ask it. A node with no address to
 * reach fails as kube's GetConnectionInfo does: a plain error, which the
 * handler answers as a 500 of reason Unknown (ErrorToAPIStatus).
 */
export function nodeConnectionOf(
  node: Node,
  tls: NodeClientTls | undefined,
  stop?: AbortSignal,
): NodeConnection {
  const addresses = node.status?.addresses ?? [];
  const address = addresses.find((a) => a.type === "InternalIP")?.address;
  if (!address)
    throw new ApiError(
      500,
      "Unknown",
      `no preferred addresses found; known addresses: [${addresses.map((a) => `{${a.type} ${a.address}}`).join(" ")}]`,
    );
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port || KUBELET_DEFAULT_PORT;
  const token = node.metadata.annotations?.[NODE_LOG_TOKEN_ANNOTATION] ?? "";
  // An agent's own serving CA (a `hearth node`), else the cluster CA.
  const servingCA = node.metadata.annotations?.[NODE_API_CA_ANNOTATION] || tls?.caPem;
  const base = { nodeName: node.metadata.name ?? "", address, port };
  if (token || !tls)
    return {
      ...base,
      scheme: "http",
      token,
      request: (path, o) =>
        http.request({
          host: address,
          port,
          path,
          method: o.method,
          headers: { ...o.headers, authorization: `Bearer ${token}` },
          signal: o.signal ?? stop,
        }),
    };
  return {
    ...base,
    scheme: "https",
    token: "",
    request: (path, o) =>
      https.request({
        host: address,
        port,
        path,
        method: o.method,
        headers: o.headers ?? {},
        cert: tls.certPem,
        key: tls.keyPem,
        ca: servingCA,
        agent: false,
        signal: o.signal ?? stop,
      }),
  };
}

/** Where the agent of the Node named `nodeName` serves; NotFound when there is no such Node. */
export async function nodeConnection(
  server: {
    registry: ResourceRegistry;
    store: ObjectStore;
    nodeClient?: NodeClientTls;
    signal?: AbortSignal;
  },
  nodeName: string,
): Promise<NodeConnection> {
  const nodeType = server.registry.lookup("", "v1", "nodes");
  const node = nodeType
    ? ((await server.store.tryGet(nodeType, undefined, nodeName)) as Node | undefined)
    : undefined;
  if (!node) throw new NotFoundError({ group: "", resource: "nodes", name: nodeName });
  return nodeConnectionOf(node, server.nodeClient, server.signal);
}

/** The URL of `path` on the agent, as messages name it. */
export function agentUrl(c: NodeConnection, path: string): string {
  return `${c.scheme}://${c.address}:${c.port}${path}`;
}

/** A GET of `path` on the agent, its status and whole body. */
export function agentGet(
  c: NodeConnection,
  path: string,
  signal: AbortSignal,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = c.request(path, { method: "GET", signal });
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
