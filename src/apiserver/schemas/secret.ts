/** core/v1 Secret: base64 `data`, write-only `stringData`, `type`, optional `immutable`. */
import type { Schema } from "../../api/index.js";
import { bool, bytesMap, str, stringMap } from "./builders.js";
import { kindSchema } from "./kind.js";

export const secretSchema: Schema = kindSchema(
  { group: "", version: "v1", kind: "Secret" },
  "Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.",
  {
    data: bytesMap(
      "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    ),
    immutable: bool(
      "Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.",
    ),
    stringData: stringMap(
      "stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values. The stringData field is never output when reading from the API.",
    ),
    type: str(
      "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types",
    ),
  },
);
