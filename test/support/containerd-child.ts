/**
 * A process that owns a ContainerdSupervisor, for tests that SIGKILL the
 * owner: `node containerd-child.js DIR IMAGE` starts (or adopts) DIR's
 * containerd, prints one JSON line `{"pid":…,"socket":…}` when CRI answers,
 * and stops it on SIGTERM.
 */
import { ContainerdSupervisor } from "../../src/node/index.js";

const [dataDir, sandboxImage] = process.argv.slice(2);
if (!dataDir || !sandboxImage) throw new Error("usage: containerd-child DIR SANDBOX_IMAGE");
const abort = new AbortController();
process.once("SIGTERM", () => abort.abort());
const supervisor = new ContainerdSupervisor({ dataDir, sandboxImage });
await supervisor.start(abort.signal);
process.stdout.write(`${JSON.stringify({ pid: supervisor.pid, socket: supervisor.socket })}\n`);
// The supervisor holds no ref'd handle (containerd is detached); this keeps the process up.
const keepAlive = setInterval(() => {}, 1 << 30);
await supervisor.stopped();
clearInterval(keepAlive);
