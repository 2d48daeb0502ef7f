/**
 * Decoding `application/vnd.kubernetes.protobuf` request bodies (as kubectl's
 * typed clients send them) into the JSON object shape kube's JSON encoding gives,
 * for the built-in kinds we serve. Decoding only: responses stay JSON.
 *
 * Decoded kinds (registered in kinds.ts):
 * - v1: Namespace, ConfigMap, Secret, ServiceAccount, Event, Pod, Service;
 * - batch/v1: Job, CronJob (the full PodTemplateSpec);
 * - coordination.k8s.io/v1: Lease;
 * - policy/v1: PodDisruptionBudget, Eviction (also policy/v1beta1);
 * - rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding, ClusterRoleBinding;
 * - authorization.k8s.io/v1: SelfSubjectAccessReview, SubjectAccessReview,
 *   LocalSubjectAccessReview, SelfSubjectRulesReview;
 * - authentication.k8s.io/v1: SelfSubjectReview, TokenRequest;
 * - DeleteOptions in any `v1` / `<group>/v1`.
 * Any other kind is refused as "unsupported-kind" (the server answers 415).
 */
import { decodeMessage } from "./decode-message.js";
import { readEnvelope } from "./envelope.js";
import { isKnownKind, messageFor } from "./kinds.js";
import { ProtobufDecodeError } from "./wire.js";

export { ProtobufDecodeError, type ProtobufErrorCode } from "./wire.js";

export const PROTOBUF_CONTENT_TYPE = "application/vnd.kubernetes.protobuf";

export interface DecodedProtobuf {
  apiVersion: string;
  kind: string;
  /** The object as JSON would carry it, `apiVersion` and `kind` included. */
  object: Record<string, unknown>;
}

/**
 * Decodes a kube protobuf body. Throws a ProtobufDecodeError: code "bad-magic",
 * "unsupported-kind" (`unsupported protobuf kind "<kind>"; send application/json`)
 * or "malformed".
 */
export function decodeKubeProtobuf(body: Buffer): DecodedProtobuf {
  const { apiVersion, kind, raw } = readEnvelope(body);
  const message = messageFor(apiVersion, kind);
  if (message === undefined) {
    // A kind we know in another group version is named as Go prints a GVK.
    const shown = isKnownKind(kind) ? `${apiVersion}, Kind=${kind}` : kind;
    throw new ProtobufDecodeError(
      "unsupported-kind",
      `unsupported protobuf kind "${shown}"; send application/json`,
    );
  }
  const object = { apiVersion, kind, ...decodeMessage(raw, message) };
  return { apiVersion, kind, object };
}
