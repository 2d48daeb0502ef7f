/**
 * The node agent's client of the Container Runtime Interface (`runtime.v1`):
 * a typed RuntimeService + ImageService client over a unix socket, its
 * message types, and the mapping of gRPC failures to Hearth's typed errors.
 * gRPC itself is loaded on the first connect. And a Pod as CRI sandbox and
 * container configuration (pod-config.ts). The proto is vendored beside
 * this file (api.proto, from k8s.io/cri-api v0.25.16), with the one call of
 * containerd's own Tasks service it makes (containerd-tasks.proto: ListPids).
 */
export { type ContainerProcess, CriClient, DEFAULT_CRI_TIMEOUT_MS } from "./cri-client.js";
export { CriError, GrpcCode } from "./cri-errors.js";
export type * from "./cri-types.js";
export type { CallOptions } from "./grpc-channel.js";
export * from "./pod-config.js";
export * from "./pod-dns.js";
