/**
 * The string formats checked on values (a subset of kube-openapi's registry):
 * `date-time` (metav1.Time/MicroTime), `date`, `byte` (base64) and `uuid`.
 * Unknown formats are accepted, as kube does.
 */

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isBase64(value: string): boolean {
  const compact = value.replace(/[\r\n]/g, "");
  return compact.length % 4 === 0 && BASE64.test(compact);
}

/** A real calendar day (Go's time.Parse rejects Feb 30; Date.parse would roll it over). */
function isCalendarDay(y: string, m: string, d: string): boolean {
  const day = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return day.getUTCMonth() === Number(m) - 1 && day.getUTCDate() === Number(d);
}

function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [, y = "", mo = "", d = "", h = "", min = "", sec = ""] = m;
  return isCalendarDay(y, mo, d) && Number(h) < 24 && Number(min) < 60 && Number(sec) < 61;
}

function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && isCalendarDay(m[1] ?? "", m[2] ?? "", m[3] ?? "");
}

const checks: Record<string, (value: string) => boolean> = {
  "date-time": isDateTime,
  datetime: isDateTime,
  date: isDate,
  byte: isBase64,
  uuid: (v) => UUID.test(v),
};

/** True when `value` is valid for `format` (or the format is not checked). */
export function matchesFormat(format: string, value: string): boolean {
  const check = checks[format];
  return check ? check(value) : true;
}
