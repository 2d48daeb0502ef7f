/**
 * The configuration of the local registry (the CNCF distribution registry,
 * Debian's `docker-registry`): filesystem storage under the given directory,
 * plain HTTP on a loopback address only, deletes allowed (so an image can be
 * replaced and collected), no upload purging timer noise in tests.
 */
import { stringify } from "yaml";

export interface RegistryConfigOptions {
  /** The storage root (`DIR/registry`). */
  storage: string;
  host: string;
  port: number;
}

export function registryConfig(o: RegistryConfigOptions): string {
  if (!/^127\.\d+\.\d+\.\d+$/.test(o.host) && o.host !== "::1")
    throw new Error(`the image registry listens on loopback only, not ${o.host}`);
  const host = o.host.includes(":") ? `[${o.host}]` : o.host;
  return stringify({
    version: 0.1,
    log: { level: "warn", formatter: "text", accesslog: { disabled: true } },
    storage: {
      filesystem: { rootdirectory: o.storage },
      delete: { enabled: true },
      maintenance: { uploadpurging: { enabled: false } },
    },
    http: { addr: `${host}:${o.port}`, headers: { "X-Content-Type-Options": ["nosniff"] } },
  });
}
