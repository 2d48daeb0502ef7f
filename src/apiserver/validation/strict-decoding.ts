/** The 400 message of kube's strict decoding when a request carries unknown fields. */

/**
 * `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error:
 * unknown field "spec.foo", unknown field "spec.bar"`.
 */
export function strictDecodingMessage(
  kind: string,
  version: string,
  unknownFields: string[],
): string {
  const errors = unknownFields.map((f) => `unknown field "${f}"`).join(", ");
  return `${kind} in version "${version}" cannot be handled as a ${kind}: strict decoding error: ${errors}`;
}

/** The `Warning: 299` texts for fieldValidation=Warn: one `unknown field "x"` per field. */
export function unknownFieldWarnings(unknownFields: string[]): string[] {
  return unknownFields.map((f) => `unknown field "${f}"`);
}
