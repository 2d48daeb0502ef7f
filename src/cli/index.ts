/** The CLI's commands, one function each. */
export { node } from "./node.js";
export { up } from "./up.js";
