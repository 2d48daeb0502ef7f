/** Runs the shared backend suite against the in-memory backend. */
import { runBackendSuite } from "../backend-suite.js";
import { MemoryBackend } from "./memory-backend.js";

runBackendSuite("memory", async () => new MemoryBackend());
