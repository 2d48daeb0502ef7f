/** Runs the shared backend suite against the in-memory backend. */
import { runBackendSuite } from "../../../test/support/storage-suite/backend-suite.js";
import { MemoryBackend } from "./memory-backend.js";

runBackendSuite("memory", async () => new MemoryBackend());
