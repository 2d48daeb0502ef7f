/**
 * The api layer's facade: object types, ObjectMeta, names and label rules,
 * selectors, quantities and typed errors — what every other layer imports.
 * Filled by scripts/fix-deep-imports.ts from the names other layers use.
 */

export type {
  Deployment,
  DeploymentCondition,
  DeploymentConditionType,
  DeploymentSpec,
  DeploymentStatus,
  DeploymentStrategy,
  ReplicaSet,
  ReplicaSetCondition,
  ReplicaSetSpec,
  ReplicaSetStatus,
  RollingUpdateDeployment,
} from "./apps.js";
export {
  DESIRED_REPLICAS_ANNOTATION,
  MAX_REPLICAS_ANNOTATION,
  POD_DELETION_COST_ANNOTATION,
  POD_TEMPLATE_HASH_LABEL,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
} from "./apps.js";
export type {
  CronJob,
  CronJobStatus,
  Job,
  JobCondition,
  JobConditionType,
  JobSpec,
  JobStatus,
  LabelSelector,
  ObjectReference,
  PodTemplateSpec,
} from "./batch.js";
export {
  CONTROLLER_UID_LABEL,
  CRONJOB_NAME_MAX,
  CRONJOB_SCHEDULED_TIMESTAMP,
  JOB_NAME_LABEL,
  JOB_TRACKING_FINALIZER,
  jobFinishedAs,
  LEGACY_CONTROLLER_UID_LABEL,
  LEGACY_JOB_NAME_LABEL,
  trueCondition,
} from "./batch.js";
export type { Schedule } from "./cron/index.js";
export {
  CronSyntaxError,
  nextTime,
  parseGoDuration,
  parseSchedule,
  timeZoneError,
  wallClock,
} from "./cron/index.js";
export type { ControllerRevision, DaemonSet, DaemonSetSpec, DaemonSetStatus } from "./daemonset.js";
export type { FieldError } from "./errors.js";
export {
  AlreadyExistsError,
  ApiError,
  BadRequestError,
  ConflictError,
  ExpiredError,
  ForbiddenError,
  fieldErrorMessage,
  forbiddenValue,
  formatValue,
  fromStatus,
  hasCode,
  InternalError,
  InvalidError,
  invalidValue,
  MethodNotAllowedError,
  NotAcceptableError,
  NotFoundError,
  qualifiedResource,
  RequestEntityTooLargeError,
  requiredValue,
  STALE_OBJECT_MESSAGE,
  TimeoutError,
  TooLargeResourceVersionError,
  TooManyRequestsError,
  UnsupportedMediaTypeError,
} from "./errors.js";
export { parseFieldRequirements } from "./field-selector.js";
export type { IntOrString } from "./int-or-percent.js";
export {
  intOrPercentValue,
  notMoreThan100PercentErrors,
  PERCENT_MESSAGE,
  percentOf,
  positiveIntOrPercentErrors,
  scaledValue,
} from "./int-or-percent.js";
export {
  ANNOTATIONS_MAX_BYTES,
  configMapKey,
  dns1123Label,
  dns1123Subdomain,
  labelValue,
  pathSegmentName,
  qualifiedName,
} from "./names.js";
export type { NodeAffinitySpec, NodeSelectorTerm } from "./node-affinity.js";
export { nodeAffinityMatches } from "./node-affinity.js";
export type {
  Container,
  ContainerState,
  ContainerStatus,
  Node,
  NodeCondition,
  NodeStatus,
  ObjectFieldSelector,
  Pod,
  PodCondition,
  PodPhase,
  PodSecurityContext,
  PodSpec,
  PodStatus,
  Probe,
  ResourceFieldSelector,
  SeccompProfile,
  SecurityContext,
  Volume,
} from "./pod.js";
export {
  DEFAULT_TERMINATION_GRACE_SECONDS,
  MAX_DNS_NAMESERVERS,
  MAX_DNS_SEARCH_LIST_CHARS,
  MAX_DNS_SEARCH_PATHS,
  NODE,
  NODE_API_CA_ANNOTATION,
  NODE_LOG_TOKEN_ANNOTATION,
  POD,
} from "./pod.js";
export type {
  Eviction,
  MetaCondition,
  PodDisruptionBudget,
  PodDisruptionBudgetSpec,
  PodDisruptionBudgetStatus,
} from "./policy.js";
export {
  budgetSelects,
  DISRUPTED_POD_TIMEOUT_MS,
  DISRUPTION_ALLOWED,
  DISRUPTION_BUDGET_CAUSE,
  EVICTION_REFUSED_MESSAGE,
  INSUFFICIENT_PODS,
  MAX_DISRUPTED_PODS,
  PDB,
  podIsReady,
  SUFFICIENT_PODS,
  SYNC_FAILED,
  withCondition,
  withDisruptionAllowed,
} from "./policy.js";
export {
  compareQuantities,
  formatBytes,
  isQuantity,
  parseQuantity,
  QUANTITY_FORMAT_MESSAGE,
  quantityMilliValue,
  quantityValue,
} from "./quantity.js";
export type { Evaluator, GroupResource, ResourceQuota } from "./quota-usage.js";
export {
  COMPUTE_RESOURCES,
  evaluatorFor,
  isNativeResource,
  podChargeEnds,
  podTotals,
  quotaIgnores,
  quotaMatches,
  resourcesTracked,
  scopeSelectors,
} from "./quota-usage.js";
export type { QuantityList, ResourceList } from "./resource-list.js";
export {
  addLists,
  canonicalList,
  canonicalQuantity,
  exceededNames,
  isZeroList,
  listsEqual,
  maskList,
  negativeNames,
  prettyPrint,
  subtractLists,
} from "./resource-list.js";
export type { Schema } from "./schema.js";
export { labelSelectorFromObject, parseFieldSelector, parseLabelSelector } from "./selectors.js";
export type {
  PersistentVolumeClaimTemplate,
  StatefulSet,
  StatefulSetSpec,
  StatefulSetStatus,
} from "./statefulset.js";
export {
  CONTROLLER_REVISION_HASH_LABEL,
  POD_INDEX_LABEL,
  STATEFULSET_POD_NAME_LABEL,
} from "./statefulset.js";
export type {
  ClaimPhase,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumePhase,
} from "./storage.js";
export {
  ACCESS_MODES,
  ANN_BETA_STORAGE_PROVISIONER,
  ANN_BIND_COMPLETED,
  ANN_BOUND_BY_CONTROLLER,
  ANN_PROVISIONED_BY,
  ANN_SELECTED_NODE,
  ANN_STORAGE_PROVISIONER,
  accessModesString,
  BETA_CLASS_ANNOTATION,
  chooseDefaultClass,
  claimClassName,
  claimKeyOf,
  DEFAULT_CLASS_ANNOTATION,
  isDefaultClass,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
  volumeClassName,
} from "./storage.js";
export { rfc3339 } from "./time.js";
export type {
  FieldsV1,
  GroupVersionKind,
  KubeList,
  KubeObject,
  ManagedFieldsEntry,
  ObjectMeta,
  OwnerReference,
  Status,
  StatusCause,
  WatchEvent,
  WatchEventType,
} from "./types.js";
export { isObject, parseApiVersion } from "./types.js";
