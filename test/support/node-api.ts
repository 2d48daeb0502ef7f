/**
 * The node agent's API as the apiserver reaches it under `hearth up`: the
 * address and port the Node object names, over HTTPS with the apiserver's
 * client certificate (`DIR/pki/apiserver-kubelet-client.*`) and the cluster
 * CA, or with no certificate (which the agent must refuse).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import https from "node:https";
import { join } from "node:path";
import type { Node } from "../../src/api/index.js";
import { type Hearth, kubectlJson } from "./hearth-process.js";

export interface NodeApi {
  url: string;
  ca: string;
  cert: string;
  key: string;
}

export async function nodeApi(h: Hearth): Promise<NodeApi> {
  const nodes = (await kubectlJson(h, ["get", "nodes"]))?.items as Node[] | undefined;
  const node = nodes?.[0];
  assert.ok(node, "a Node");
  const address = node.status?.addresses?.find((a) => a.type === "InternalIP")?.address;
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  assert.ok(address && port, `the Node names the agent's endpoint: ${JSON.stringify(node.status)}`);
  const pki = join(h.dataDir, "pki");
  return {
    url: `https://${address}:${port}`,
    ca: readFileSync(join(pki, "ca.crt"), "utf8"),
    cert: readFileSync(join(pki, "apiserver-kubelet-client.crt"), "utf8"),
    key: readFileSync(join(pki, "apiserver-kubelet-client.key"), "utf8"),
  };
}

/** GET `path` on the node API, as the apiserver (or, `anonymous`, with no client certificate). */
export function nodeApiGet(
  api: NodeApi,
  path: string,
  o: { anonymous?: boolean; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string; contentType: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      `${api.url}${path}`,
      {
        ca: api.ca,
        ...(o.anonymous ? {} : { cert: api.cert, key: api.key }),
        headers: o.headers ?? {},
        agent: false,
        timeout: 30_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          text += d;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text,
            contentType: res.headers["content-type"] ?? "",
          }),
        );
      },
    );
    // An upgrade the agent refuses is answered as a plain response; one it accepts is not expected here.
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 101, text: "", contentType: "" });
    });
    req.on("error", reject);
  });
}
