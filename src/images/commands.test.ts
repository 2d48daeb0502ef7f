/** The exact command lines of the image build and the registry, from specs and paths. */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { describe, it } from "node:test";
import {
  aptInstallScript,
  aptSimulateArgv,
  debootstrapArgv,
  publishArgv,
  repositoryOf,
  umociConfigArgv,
  unshareArgv,
} from "./commands.js";
import { findSpec, IMAGE_SPECS, type ImageSpec, layoutRef } from "./specs.js";

const etcd = findSpec("etcd:3.4")!;

describe("image build argv", () => {
  it("debootstraps a minbase bookworm from Debian's mirror", () => {
    assert.deepEqual(debootstrapArgv("/c/root.tmp"), [
      "debootstrap",
      "--variant=minbase",
      "bookworm",
      "/c/root.tmp",
      "http://deb.debian.org/debian",
    ]);
  });

  it("simulates the install without recommends to learn the versions", () => {
    assert.deepEqual(aptSimulateArgv("/r", ["etcd-server"]), [
      "chroot",
      "/r",
      "apt-get",
      "install",
      "-s",
      "--no-install-recommends",
      "etcd-server",
    ]);
  });

  it("sets every config field with umoci config, each list element its own flag", () => {
    const argv = umociConfigArgv("/c/oci:postgres-15", findSpec("postgres")!.config, {
      b: "2",
      a: "1",
    });
    assert.deepEqual(argv.slice(0, 8), [
      "umoci",
      "config",
      "--image",
      "/c/oci:postgres-15",
      "--author",
      "hearth images build",
      "--config.label",
      "a=1",
    ]);
    const pairs = (flag: string) => argv.flatMap((a, i) => (a === flag ? [argv[i + 1]] : []));
    assert.deepEqual(pairs("--config.label"), ["a=1", "b=2"]);
    assert.deepEqual(pairs("--config.cmd"), ["postgres"]);
    assert.deepEqual(pairs("--config.user"), ["postgres"]);
    assert.deepEqual(pairs("--config.stopsignal"), ["SIGINT"]);
    assert.deepEqual(pairs("--config.exposedports"), ["5432/tcp"]);
    assert.deepEqual(pairs("--config.volume"), ["/var/lib/postgresql/data"]);
    assert.equal(pairs("--config.env")[1], "PGDATA=/var/lib/postgresql/data");
    assert.deepEqual(pairs("--config.entrypoint"), []);
  });

  it("keeps a multi-word cmd as separate elements", () => {
    const argv = umociConfigArgv("L:nginx-1.22", findSpec("nginx")!.config, {});
    const cmd = argv.flatMap((a, i) => (a === "--config.cmd" ? [argv[i + 1]] : []));
    assert.deepEqual(cmd, ["nginx", "-g", "daemon off;"]);
  });

  it("publishes under library/ with TLS verification off for the loopback registry", () => {
    assert.equal(repositoryOf(etcd), "library/etcd:3.4");
    assert.deepEqual(publishArgv("/c/oci", layoutRef(etcd), "127.0.0.1:5000", repositoryOf(etcd)), [
      "skopeo",
      "copy",
      "--quiet",
      "--dest-tls-verify=false",
      "oci:/c/oci:etcd-3.4",
      "docker://127.0.0.1:5000/library/etcd:3.4",
    ]);
  });

  it("runs the install script in a private mount and PID namespace that dies with it", () => {
    const argv = unshareArgv("echo", ["/b/rootfs"]);
    for (const flag of ["--mount", "--pid", "--fork", "--kill-child"])
      assert.ok(argv.includes(flag), flag);
    assert.deepEqual(argv.slice(argv.indexOf("--propagation"), argv.indexOf("--propagation") + 2), [
      "--propagation",
      "private",
    ]);
    assert.deepEqual(argv.slice(-4), ["-euc", "echo", "sh", "/b/rootfs"]);
  });
});

describe("aptInstallScript", () => {
  const script = aptInstallScript(findSpec("postgres")!);

  it("is valid sh", () => {
    execFileSync("sh", ["-n", "-c", script]);
  });

  it("runs preinstall, then apt without recommends, then setup, then cleans what must not ship", () => {
    const at = (s: string) => {
      const i = script.indexOf(s);
      assert.ok(i >= 0, `script has ${s}`);
      return i;
    };
    assert.ok(
      at("create_main_cluster = false") <
        at("apt-get install -y -q --no-install-recommends 'postgresql-15'"),
    );
    assert.ok(at("--no-install-recommends 'postgresql-15'") < at("chown postgres:postgres"));
    assert.ok(
      at("chown postgres:postgres") <
        at('rm -f "$root/usr/sbin/policy-rc.d" "$root/etc/resolv.conf"'),
    );
    at('"$root"/var/cache/apt/*.bin');
    at('mount --bind "$lists" "$root/var/lib/apt/lists"');
    at("exit 101");
  });

  it("quotes a single quote in a setup line", () => {
    const spec: ImageSpec = { ...etcd, setup: ["echo 'it''s'"] };
    execFileSync("sh", ["-n", "-c", aptInstallScript(spec)]);
    assert.ok(aptInstallScript(spec).includes(`'echo '\\''it'\\'''\\''s'\\'''`));
  });

  it("refuses an image that is not made with apt", () => {
    assert.throws(() => aptInstallScript(findSpec("busybox")!), /not an apt image/);
  });
});

describe("the spec list", () => {
  it("has each name once, with a tag, a config and a note on how it differs", () => {
    const names = IMAGE_SPECS.map((s) => s.name);
    assert.equal(new Set(names).size, names.length);
    for (const s of IMAGE_SPECS) {
      // A Debian image is tagged with its program's version; hearth with `dev` (a checkout).
      assert.match(s.tag, s.source.kind === "checkout" ? /^dev$/ : /^[0-9][0-9.]*$/, s.name);
      assert.ok(s.differs.length > 20, s.name);
      assert.ok(s.config.cmd || s.config.entrypoint, `${s.name} has something to run`);
    }
    for (const n of ["busybox", "pause", "etcd", "postgres", "redis", "nginx", "haproxy", "hearth"])
      assert.ok(findSpec(n), n);
  });

  it("finds by name:tag or name, and nothing else", () => {
    assert.equal(findSpec("etcd:3.4"), etcd);
    assert.equal(findSpec("etcd"), etcd);
    assert.equal(findSpec("etcd:3.5"), undefined);
  });
});
