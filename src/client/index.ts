/**
 * The client layer: the one interface every component uses to reach the API
 * (Reader, Writer, StatusWriter, Watcher), its HTTP implementation, and kubeconfig.
 */
export { errorText, getOptional, ignoreNotFound, isNotFound, refOf } from "./call-helpers.js";
export { DiscoveryMapper, kindTable } from "./discovery-mapper.js";
export {
  controllerRecorder,
  EventRecorder,
  type EventRecorderOptions,
  type EventType,
  objectReference,
} from "./event-recorder.js";
export { clientFromKubeconfig, createHttpClient, HttpClient } from "./http-client.js";
export type {
  ApplyOptions,
  CallOptions,
  Client,
  DeleteCollectionOptions,
  DeleteOptions,
  ListOptions,
  ObjectRef,
  PatchCallOptions,
  PatchOptions,
  PatchType,
  RawResponse,
  Reader,
  ResourceId,
  ResourceMapper,
  ResourceMapping,
  SelectorOptions,
  StatusWriter,
  TypeRef,
  Watcher,
  WatchOptions,
  WriteOptions,
  Writer,
} from "./interface.js";
export { isStatus } from "./interface.js";
export {
  type KubeconfigSpec,
  kubeconfigYaml,
  loadKubeconfig,
  type ParseKubeconfigOptions,
  parseKubeconfig,
  writeKubeconfig,
} from "./kubeconfig.js";
export { groupVersionPath, queryString, resourcePath } from "./paths.js";
export type { ClientConfig } from "./transport.js";
