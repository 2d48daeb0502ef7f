/** The CLI's commands, one function each. */
export { apiserver } from "./apiserver.js";
export { controllers } from "./controllers.js";
export { doctor } from "./doctor.js";
export { etcdDefrag } from "./etcd-defrag.js";
export { images } from "./images.js";
export { node } from "./node.js";
export { up } from "./up.js";
