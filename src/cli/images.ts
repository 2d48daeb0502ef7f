/**
 * `hearth images build [--only NAME[,NAME…]] [--refresh] [--cache DIR]`:
 * builds Hearth's images into the cache (idempotent; with the same package
 * versions it only looks them up) and prints one line per image.
 * `hearth images serve [--data-dir DIR] [--port N]`: runs the local registry
 * with every built image published, until SIGTERM or SIGINT.
 */
import {
  buildImages,
  findSpec,
  IMAGE_SPECS,
  type ImageSpec,
  imageCache,
  startRegistry,
} from "../images/index.js";
import { intFlag, parseArgs } from "./args.js";

function selected(only: string | undefined): readonly ImageSpec[] {
  if (only === undefined) return IMAGE_SPECS;
  return only.split(",").map((n) => {
    const spec = findSpec(n.trim());
    if (!spec)
      throw new Error(
        `no image ${JSON.stringify(n)}; Hearth builds ${IMAGE_SPECS.map((s) => `${s.name}:${s.tag}`).join(", ")}`,
      );
    return spec;
  });
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function build(argv: string[]): Promise<void> {
  const args = parseArgs(argv, ["refresh"]);
  const cache = imageCache(args.flags.get("cache"));
  const started = Date.now();
  const results = await buildImages({
    cache,
    specs: selected(args.flags.get("only")),
    refresh: args.flags.has("refresh"),
    log: (l) => process.stderr.write(`hearth images: ${l}\n`),
  });
  for (const { spec, record, cached } of results)
    process.stdout.write(
      `${spec.name}:${spec.tag}\t${record.digest}\t${mb(record.bytes)}\t${cached ? "cached" : `built in ${record.seconds.toFixed(1)} s`}\n`,
    );
  process.stderr.write(
    `hearth images: ${results.length} images in ${cache.layout} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}

async function serve(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const cache = imageCache(args.flags.get("cache"));
  const controller = new AbortController();
  for (const sig of ["SIGTERM", "SIGINT"] as const) process.once(sig, () => controller.abort());
  const registry = await startRegistry({
    dataDir: args.flags.get("data-dir") ?? ".hearth",
    port: intFlag(args, "port", 0),
    signal: controller.signal,
    log: (l) => process.stderr.write(`hearth images: ${l}\n`),
  });
  const results = await buildImages({
    cache,
    log: (l) => process.stderr.write(`hearth images: ${l}\n`),
  });
  for (const { spec } of results) await registry.publish(spec, cache);
  process.stdout.write(
    `hearth images: registry on http://${registry.address} serving ${results.length} images\n`,
  );
  await registry.stopped;
}

export async function images(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === "build") return build(rest);
  if (sub === "serve") return serve(rest);
  throw new Error(
    `usage: hearth images build [--only NAME,…] [--refresh] [--cache DIR] | images serve [--data-dir DIR] [--port N]`,
  );
}
