/** kube's `metav1.Time` on the wire: RFC 3339 in UTC, to the second (`2026-01-02T03:04:05Z`). */
export function rfc3339(at: number | Date = Date.now()): string {
  return `${new Date(at).toISOString().slice(0, 19)}Z`;
}
