/** The CLI's commands, one function each. */
export { up } from "./up.js";
