/** This checkout's root (dist/src/node → the repository), where `config/` lives. */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const HEARTH_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
