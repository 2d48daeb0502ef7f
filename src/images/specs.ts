/**
 * The images Hearth builds from Debian's packages, each published as
 * `library/<name>:<tag>` so that the Docker Hub name (`postgres:15`,
 * `docker.io/library/postgres:15`) resolves to it through a registry mirror.
 * The image config follows the Docker Hub image of the same name as far as
 * Debian's packages allow; `differs` says where it does not.
 */

/** The parts of an OCI image config a spec sets (set with `umoci config`). */
export interface ImageConfig {
  entrypoint?: readonly string[];
  cmd?: readonly string[];
  /** `NAME=value`, in order. */
  env?: readonly string[];
  user?: string;
  workingDir?: string;
  /** `2379/tcp`. */
  exposedPorts?: readonly string[];
  volumes?: readonly string[];
  stopSignal?: string;
}

/**
 * How an image's files are made:
 * - `apt`: a layer of `apt-get install --no-install-recommends` of the packages
 *   on top of the minbase root (maintainer scripts run, users are made);
 * - `extract`: only the packages' own files (`dpkg-deb -x`) on an empty root,
 *   for self-contained static binaries; no dependency is pulled in;
 * - `pause`: a static C pause compiled with the machine's gcc;
 * - `checkout`: Hearth itself — the Node.js running the build and the
 *   checkout's runtime files, as two layers on the base (checkout-image.ts).
 */
export type ImageSource =
  | { kind: "apt"; packages: readonly string[] }
  | { kind: "extract"; packages: readonly string[] }
  | { kind: "pause" }
  | { kind: "checkout" };

export interface ImageSpec {
  name: string;
  tag: string;
  source: ImageSource;
  /** Shell lines run in the image root before the packages go in (apt images only). */
  preinstall?: readonly string[];
  /** Shell lines run after: in a chroot of the root (apt), or on the host with the root as cwd. */
  setup?: readonly string[];
  config: ImageConfig;
  /** Where it differs from the Docker Hub image of that name. */
  differs: string;
}

const PATH = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export const IMAGE_SPECS: readonly ImageSpec[] = [
  {
    name: "busybox",
    tag: "1.35",
    source: { kind: "extract", packages: ["busybox-static"] },
    setup: [
      "mkdir -p bin etc tmp root home var/www",
      "chmod 1777 tmp",
      "chroot . /bin/busybox --install -s /bin",
      "printf 'root:x:0:0:root:/root:/bin/sh\\nnobody:x:65534:65534:nobody:/home:/bin/false\\n' > etc/passwd",
      "printf 'root:x:0:\\nnogroup:x:65534:\\n' > etc/group",
    ],
    config: { cmd: ["sh"], env: [PATH] },
    differs:
      "Debian 12 ships busybox 1.35, so the tag is 1.35 (Docker Hub's current is 1.36); applets are symlinks, not hard links.",
  },
  {
    name: "pause",
    tag: "3.9",
    source: { kind: "pause" },
    config: { entrypoint: ["/pause"], user: "65535:65535" },
    differs:
      "Not from a Debian package: a small C pause (Kubernetes' pause.c behaviour: sleeps, reaps children, exits 0 on SIGINT/SIGTERM) compiled statically with the machine's gcc (Debian's gcc and libc6-dev).",
  },
  {
    name: "etcd",
    tag: "3.4",
    source: { kind: "apt", packages: ["etcd-server", "etcd-client"] },
    setup: [
      "ln -s /usr/bin/etcd /usr/local/bin/etcd",
      "ln -s /usr/bin/etcdctl /usr/local/bin/etcdctl",
      "mkdir -p /var/lib/etcd",
    ],
    config: {
      cmd: ["/usr/local/bin/etcd"],
      env: [PATH],
      exposedPorts: ["2379/tcp", "2380/tcp"],
    },
    differs:
      "etcd's own image (gcr.io/etcd-development/etcd) is distroless; this one is on Debian's minbase root (a shell, coreutils). /usr/local/bin/etcd and etcdctl (as upstream's image has both) are links to Debian's etcd-server and etcd-client binaries.",
  },
  {
    name: "postgres",
    tag: "15",
    source: { kind: "apt", packages: ["postgresql-15"] },
    preinstall: [
      "mkdir -p /etc/postgresql-common/createcluster.d",
      "echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/hearth.conf",
    ],
    setup: ["mkdir -p /var/run/postgresql && chown postgres:postgres /var/run/postgresql"],
    config: {
      cmd: ["postgres"],
      env: [
        "PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "PGDATA=/var/lib/postgresql/data",
        "LANG=C.UTF-8",
      ],
      user: "postgres",
      exposedPorts: ["5432/tcp"],
      volumes: ["/var/lib/postgresql/data"],
      stopSignal: "SIGINT",
    },
    differs:
      "No docker-entrypoint.sh: the data directory is not initialised from POSTGRES_PASSWORD/POSTGRES_DB (run initdb first, e.g. in an init container); runs as user postgres; LANG is C.UTF-8 (no locales package).",
  },
  {
    name: "redis",
    tag: "7",
    source: { kind: "apt", packages: ["redis-server"] },
    setup: ["mkdir -p /data && chown redis:redis /data"],
    config: {
      cmd: ["redis-server", "--protected-mode", "no"],
      env: [PATH],
      user: "redis",
      workingDir: "/data",
      exposedPorts: ["6379/tcp"],
      volumes: ["/data"],
    },
    differs:
      "No docker-entrypoint.sh (it only drops root and fixes /data's owner): runs as user redis; protected mode is turned off on the command line, as Docker Hub's build does in the source.",
  },
  {
    name: "nginx",
    tag: "1.22",
    source: { kind: "apt", packages: ["nginx-light"] },
    setup: [
      "ln -sf /dev/stdout /var/log/nginx/access.log",
      "ln -sf /dev/stderr /var/log/nginx/error.log",
    ],
    config: {
      cmd: ["nginx", "-g", "daemon off;"],
      env: [PATH],
      exposedPorts: ["80/tcp"],
      stopSignal: "SIGQUIT",
    },
    differs:
      "Debian's nginx-light with Debian's configuration (/etc/nginx/sites-enabled/default serving /var/www/html) instead of /etc/nginx/conf.d/default.conf and /usr/share/nginx/html; no docker-entrypoint.sh templating.",
  },
  {
    name: "haproxy",
    tag: "2.6",
    source: { kind: "apt", packages: ["haproxy"] },
    setup: ["mkdir -p /usr/local/etc && ln -s /etc/haproxy /usr/local/etc/haproxy"],
    config: {
      cmd: ["haproxy", "-f", "/usr/local/etc/haproxy/haproxy.cfg"],
      env: [PATH],
      user: "haproxy",
      workingDir: "/var/lib/haproxy",
      stopSignal: "SIGUSR1",
    },
    differs:
      "Debian's haproxy.cfg (which logs to /dev/log and expects /run/haproxy) is at /usr/local/etc/haproxy/haproxy.cfg through a link; mount your own there, as with Docker Hub's.",
  },
  {
    name: "hearth",
    tag: "dev",
    source: { kind: "checkout" },
    config: {
      // The flags are NODE_FLAGS of src/main/node-flags.ts (images imports no
      // other layer); its test keeps the two equal.
      entrypoint: [
        "/usr/local/bin/node",
        "--max-semi-space-size=4",
        "/opt/hearth/dist/src/main/hearth.js",
      ],
      env: [PATH],
    },
    differs:
      "Not a Docker Hub image: Hearth itself, for its CLI in pods (the Etcd app's defrag job) and later control planes and workers. The minbase root (node needs only libc, libstdc++ and libgcc_s, all in it, and it is the layer the apt images already share), the Node.js that built the image at /usr/local/bin/node (Debian's nodejs is 18, and better-sqlite3's addon is built for this node's ABI), and under /opt/hearth the checkout's dist/src without tests and source maps, src/**/*.proto (the CRI client reads api.proto from the source tree), config/, package.json and the production node_modules (package-lock.json's non-dev packages, what npm ls --omit=dev lists). No CMD: args are the CLI's command. Tag dev is whatever checkout built it last into this cache; latest is the same image.",
  },
];

/** `etcd:3.4` → its spec; undefined when Hearth builds no such image. */
export function findSpec(ref: string): ImageSpec | undefined {
  return IMAGE_SPECS.find((s) => `${s.name}:${s.tag}` === ref || s.name === ref);
}

/** The name of an image's tag inside the OCI layout of the cache (`etcd-3.4`). */
export const layoutRef = (spec: Pick<ImageSpec, "name" | "tag">) => `${spec.name}-${spec.tag}`;
