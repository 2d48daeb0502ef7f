/**
 * The string formats checked on values (a subset of kube-openapi's registry):
 * `date-time` (metav1.Time/MicroTime), `date`, `byte` (base64) and `uuid`.
 * Unknown formats are accepted, as kube does.
 */

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isBase64(value: string): boolean {
  const compact = value.replace(/[\r\n]/g, "");
  return compact.length % 4 === 0 && BASE64.test(compact);
}

function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value.replace(" ", "T")));
}

const checks: Record<string, (value: string) => boolean> = {
  "date-time": isDateTime,
  datetime: isDateTime,
  date: (v) => DATE.test(v) && !Number.isNaN(Date.parse(v)),
  byte: isBase64,
  uuid: (v) => UUID.test(v),
};

/** True when `value` is valid for `format` (or the format is not checked). */
export function matchesFormat(format: string, value: string): boolean {
  const check = checks[format];
  return check ? check(value) : true;
}
