/**
 * The host's resolver configuration (`/etc/resolv.conf`, or the file of
 * `--resolv-conf`), read as the kubelet's parseResolvConf does: every
 * `nameserver`, the last `search` line (a lone "." dropped, trailing dots
 * trimmed), every `options` word. Pods with dnsPolicy Default get it as it
 * is; ClusterFirst pods get its search domains after the cluster's; the
 * cluster DNS server forwards the names outside its zone to its nameservers.
 */
import { readFileSync } from "node:fs";

export const DEFAULT_RESOLV_CONF = "/etc/resolv.conf";

export interface ResolvConf {
  nameservers: string[];
  searches: string[];
  options: string[];
}

export const EMPTY_RESOLV_CONF: ResolvConf = { nameservers: [], searches: [], options: [] };

export function parseResolvConf(text: string): ResolvConf {
  const out: ResolvConf = { nameservers: [], searches: [], options: [] };
  for (const raw of text.split("\n")) {
    const line = raw.replace(/[#;].*$/, "").trim();
    const [key, ...fields] = line.split(/\s+/);
    if (key === "nameserver" && fields[0]) out.nameservers.push(fields[0]);
    else if (key === "search")
      out.searches = fields.filter((s) => s !== ".").map((s) => s.replace(/\.$/, ""));
    else if (key === "options") out.options.push(...fields);
  }
  return out;
}

/** The file parsed; a missing file is an empty configuration (as the kubelet's, it is not an error). */
export function readResolvConf(path: string = DEFAULT_RESOLV_CONF): ResolvConf {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return EMPTY_RESOLV_CONF;
    throw new Error(`cannot read the resolver configuration ${path}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  return parseResolvConf(text);
}
