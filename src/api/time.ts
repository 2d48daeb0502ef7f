/**
 * kube's `metav1.Time` on the wire: RFC 3339 in UTC, to the second
 * (`2026-01-02T03:04:05Z`). The text of the last second formatted is kept, as
 * most calls ask for the current second.
 */

/** The largest time value a Date holds (ms since the epoch); past it toISOString throws. */
const MAX_TIME = 8.64e15;

/** The last second formatted (its first ms since the epoch) and its text. */
let lastSecond = Number.NaN;
let lastText = "";

export function rfc3339(at: number | Date = Date.now()): string {
  // A Date's time value is an integer (TimeClip truncates toward zero), so truncate first.
  const ms = Math.trunc(typeof at === "number" ? at : at.getTime());
  const second = ms - (((ms % 1000) + 1000) % 1000);
  if (second !== lastSecond || ms > MAX_TIME) {
    lastText = `${new Date(ms).toISOString().slice(0, 19)}Z`;
    lastSecond = second;
  }
  return lastText;
}
