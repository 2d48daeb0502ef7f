/**
 * Hearth's own OCI images: built from Debian packages into a cache outside
 * the clone (`buildImages`), served from a local registry (`startRegistry`)
 * under Docker Hub's names (`library/<name>:<tag>`).
 */
export { type BuildOptions, buildImages } from "./build.js";
export type { BuildResult } from "./build-image.js";
export {
  type BuildRecord,
  builtSpecs,
  DEFAULT_IMAGE_CACHE,
  type ImageCache,
  imageCache,
} from "./cache.js";
export { repositoryOf } from "./commands.js";
export { CommandError, run } from "./exec.js";
export { freePort, type Registry, type RegistryOptions, startRegistry } from "./registry.js";
export { findSpec, IMAGE_SPECS, type ImageConfig, type ImageSpec, layoutRef } from "./specs.js";
