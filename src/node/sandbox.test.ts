import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hostLayout, isUnderReadOnlyRoot, sandboxArgs } from "./sandbox.js";

const MERGED = { "/bin": "usr/bin", "/lib": "usr/lib", "/lib64": "usr/lib64", "/sbin": "usr/sbin" };

/** The option pairs/triples after each flag, for order-insensitive checks. */
function flagsOf(args: string[], flag: string, arity: number): string[][] {
  const out: string[][] = [];
  args.forEach((a, i) => {
    if (a === flag) out.push(args.slice(i + 1, i + 1 + arity));
  });
  return out;
}

describe("sandboxArgs", () => {
  const args = sandboxArgs(
    {
      command: ["/usr/bin/etcd", "--data-dir", "/var/lib/etcd"],
      hostname: "etcd-0",
      workingDir: "",
      statusFd: 3,
      mounts: [
        { source: "/d/pods/u/volumes/conf", target: "/var/lib/etcd/conf", readOnly: true },
        { source: "/d/pods/u/volumes/data", target: "/var/lib/etcd", readOnly: false },
      ],
    },
    MERGED,
  );

  it("builds the root from read-only binds, symlinks, proc, dev and tmpfs", () => {
    assert.deepEqual(flagsOf(args, "--ro-bind", 2).slice(0, 2), [
      ["/usr", "/usr"],
      ["/etc", "/etc"],
    ]);
    assert.deepEqual(flagsOf(args, "--symlink", 2), [
      ["usr/bin", "/bin"],
      ["usr/lib", "/lib"],
      ["usr/lib64", "/lib64"],
      ["usr/sbin", "/sbin"],
      ["../run", "/var/run"],
    ]);
    assert.deepEqual(flagsOf(args, "--tmpfs", 1), [["/tmp"], ["/var"], ["/run"]]);
    assert.deepEqual(flagsOf(args, "--proc", 1), [["/proc"]]);
    assert.deepEqual(flagsOf(args, "--dev", 1), [["/dev"]]);
    const binds = [...flagsOf(args, "--bind", 2), ...flagsOf(args, "--ro-bind", 2)];
    assert.ok(
      binds.every(([, target]) => target !== "/"),
      "never a bind of the host's /",
    );
  });

  it("binds volumes after the tmpfs, parents first, read-only when asked", () => {
    const bind = args.indexOf("--bind");
    const roConf = args.lastIndexOf("--ro-bind");
    assert.ok(bind > args.lastIndexOf("--tmpfs"));
    assert.ok(bind < roConf, "the parent volume is mounted before the one inside it");
    assert.deepEqual(args.slice(bind, bind + 3), [
      "--bind",
      "/d/pods/u/volumes/data",
      "/var/lib/etcd",
    ]);
    assert.deepEqual(args.slice(roConf, roConf + 3), [
      "--ro-bind",
      "/d/pods/u/volumes/conf",
      "/var/lib/etcd/conf",
    ]);
  });

  it("runs in a new session with its hostname, reports status, never dies with the agent", () => {
    assert.deepEqual(flagsOf(args, "--hostname", 1), [["etcd-0"]]);
    assert.ok(args.includes("--unshare-uts"));
    assert.ok(args.includes("--new-session"));
    assert.deepEqual(flagsOf(args, "--json-status-fd", 1), [["3"]]);
    assert.deepEqual(flagsOf(args, "--chdir", 1), [["/"]]);
    assert.ok(!args.includes("--die-with-parent"));
    assert.ok(
      !args.includes("--unshare-net"),
      "pods share the host network to use their loopback IP",
    );
    const sep = args.indexOf("--");
    assert.deepEqual(args.slice(sep + 1), ["/usr/bin/etcd", "--data-dir", "/var/lib/etcd"]);
  });

  it("binds real directories where the host has no merged /usr, and probes die with the agent", () => {
    const a = sandboxArgs(
      { command: ["true"], hostname: "h", workingDir: "/w", mounts: [], dieWithParent: true },
      { "/bin": "dir" },
    );
    assert.deepEqual(flagsOf(a, "--ro-bind", 2)[2], ["/bin", "/bin"]);
    assert.ok(a.includes("--die-with-parent"));
    assert.ok(!a.includes("--json-status-fd"));
    assert.deepEqual(flagsOf(a, "--chdir", 1), [["/w"]]);
  });

  it("knows the read-only roots and reads this host's layout", () => {
    assert.ok(isUnderReadOnlyRoot("/etc/nginx"));
    assert.ok(isUnderReadOnlyRoot("/usr"));
    assert.ok(!isUnderReadOnlyRoot("/etcd"));
    assert.ok(!isUnderReadOnlyRoot("/var/lib/x"));
    const layout = hostLayout();
    assert.ok(Object.keys(layout).length > 0);
  });
});
