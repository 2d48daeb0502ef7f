/**
 * The flags Node runs Hearth's long-lived processes with (`hearth up`,
 * `apiserver`, `node`); the `hearth` script passes the same list, and a test
 * keeps the two equal.
 *
 * `--max-semi-space-size=4`: V8's young generation grows to two 16 MB
 * semi-spaces by default, sized for allocation-heavy servers. Hearth's
 * processes allocate little between events, so most of those 32 MB sit
 * resident and unused: capped at 4 MB, `hearth up` idles at about 117–124 MB
 * instead of 160 MB, and with 10 Tenants with Etcd holds 182–184 MB instead of
 * 197–212 MB (bench `watches`, runs of 2026-12-02). The same runs of the
 * `apiserver` and `reconcileThroughput` groups with and without the cap
 * overlap at 64 clients (creates 2,656–2,935/s against 2,756–2,938/s); at one
 * client they were 741–801/s against 854–1,058/s, within this machine's noise
 * or a small cost. 1 MB
 * is worse: objects get promoted early and the old generation grows to 114 MB.
 */
export const NODE_FLAGS: readonly string[] = ["--max-semi-space-size=4"];
