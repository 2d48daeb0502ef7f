/**
 * authentication.k8s.io/v1 SelfSubjectReview (who am I) and TokenRequest (the
 * body of a ServiceAccount's `token` subresource), as kube v1.32 publishes them.
 */
import type { Schema } from "../../api/index.js";
import { int64, object, str, stringList, time } from "./builders.js";
import { kindSchema } from "./kind.js";

const GROUP = "authentication.k8s.io";
const METADATA =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

function authnKind(
  kind: string,
  description: string,
  properties: Record<string, Schema>,
  required?: string[],
): Schema {
  const schema = kindSchema(
    { group: GROUP, version: "v1", kind },
    description,
    properties,
    required,
  );
  schema.properties!.metadata = { ...schema.properties!.metadata!, description: METADATA };
  return schema;
}

const userInfo = object("User attributes of the user making this request.", {
  extra: {
    type: "object",
    description: "Any additional information provided by the authenticator.",
    additionalProperties: { type: "array", items: { type: "string" } },
  },
  groups: stringList("The names of groups this user is a part of."),
  uid: str(
    "A unique value that identifies this user across time. If this user is deleted and another user by the same name is added, they will have different UIDs.",
  ),
  username: str("The name that uniquely identifies this user among all active users."),
});

export const selfSubjectReviewSchema: Schema = authnKind(
  "SelfSubjectReview",
  "SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request. When using impersonation, users will receive the user info of the user being impersonated.  If impersonation or request header authentication is used, any extra keys will have their case ignored and returned as lowercase.",
  {
    status: object("Status is filled in by the server with the user attributes.", { userInfo }),
  },
);

export const tokenRequestSchema: Schema = authnKind(
  "TokenRequest",
  "TokenRequest requests a token for a given service account.",
  {
    spec: object(
      "Spec holds information about the request being evaluated",
      {
        audiences: stringList(
          "Audiences are the intendend audiences of the token. A recipient of a token must identify themself with an identifier in the list of audiences of the token, and otherwise should reject the token. A token issued for multiple audiences may be used to authenticate against any of the audiences listed but implies a high degree of trust between the target audiences.",
        ),
        boundObjectRef: object(
          "BoundObjectRef is a reference to an object that the token will be bound to. The token will only be valid for as long as the bound object exists. NOTE: The API server's TokenReview endpoint will validate the BoundObjectRef, but other audiences may not. Keep ExpirationSeconds small if you want prompt revocation.",
          {
            apiVersion: str("API version of the referent."),
            kind: str("Kind of the referent. Valid kinds are 'Pod' and 'Secret'."),
            name: str("Name of the referent."),
            uid: str("UID of the referent."),
          },
        ),
        expirationSeconds: int64(
          "ExpirationSeconds is the requested duration of validity of the request. The token issuer may return a token with a different validity duration so a client needs to check the 'expiration' field in a response.",
        ),
      },
      ["audiences"],
    ),
    status: object(
      "Status is filled in by the server and indicates whether the token can be authenticated.",
      {
        expirationTimestamp: time(
          "ExpirationTimestamp is the time of expiration of the returned token.",
        ),
        token: str("Token is the opaque bearer token."),
      },
      ["token", "expirationTimestamp"],
    ),
  },
  ["spec"],
);
