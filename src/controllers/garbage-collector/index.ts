/** The garbage collector: owner references, foreground and orphan deletion. */
export { GarbageCollector } from "./garbage-collector.js";
