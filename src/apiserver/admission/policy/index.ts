/**
 * ValidatingAdmissionPolicy: the served policy and binding kinds, and the
 * admission plugin that enforces them with CEL.
 */
export { ValidatingAdmissionPolicyPlugin } from "./plugin.js";
export { bindingResourceType, policyResourceType } from "./resource-types.js";
