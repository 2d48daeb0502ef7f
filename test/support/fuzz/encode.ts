/**
 * Body encodings of the fuzz suite: JSON (sometimes truncated or with junk
 * around it), YAML (plain, with anchors and aliases, unresolved aliases, an
 * alias bomb, tags, several documents, bad indentation) and kube's protobuf
 * envelope (kubectl's captured bodies, whole, truncated or garbled, and
 * hand-built envelopes with odd types).
 */
import YAML from "yaml";
import { KUBECTL_VECTORS } from "../protobuf/kubectl-vectors.js";
import { KUBECTL_WORKLOAD_VECTORS } from "../protobuf/kubectl-workload-vectors.js";
import { envelope, lField, vField } from "../protobuf/test-writer.js";
import { jsonText, type Mutated } from "./mutate.js";
import type { Prng } from "./prng.js";

export interface Body {
  body: Buffer;
  contentType: string;
  /** Why kube surely refuses this body. */
  mustRefuse?: string;
}

export const PROTOBUF = "application/vnd.kubernetes.protobuf";

/** JSON of `m`, now and then broken. */
export function jsonBody(rng: Prng, m: Mutated, contentType = "application/json"): Body {
  const text = jsonText(m);
  const r = rng.next();
  if (r < 0.05) {
    const cut = text.slice(0, rng.int(text.length));
    return { body: Buffer.from(cut), contentType, mustRefuse: "truncated JSON" };
  }
  if (r < 0.08) return { body: Buffer.from(`${text}}`), contentType };
  if (r < 0.1) return { body: Buffer.from(`\ufeff${text}`), contentType };
  if (r < 0.12) {
    // The same key twice: Go's decoder takes the last, strict validation refuses it.
    const dup = text.replace('"metadata":', '"metadata":{},"metadata":');
    return { body: Buffer.from(dup), contentType };
  }
  if (r < 0.13) return { body: Buffer.from(text, "utf16le"), contentType };
  return { body: Buffer.from(text), contentType };
}

/** A chain of aliases that expands to 10^9 nodes (kube's YAML decoder refuses it). */
function aliasBomb(): string {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
  const names = "abcdefghi";
  for (let i = 1; i < names.length; i++) {
    const p = names[i - 1]!;
    lines.push(`${names[i]}: &${names[i]} [${Array(10).fill(`*${p}`).join(",")}]`);
  }
  return `${lines.join("\n")}\n`;
}

export function yamlBody(rng: Prng, m: Mutated, contentType = "application/yaml"): Body {
  const text =
    m.deep !== undefined ? jsonText(m) : YAML.stringify(m.object, { aliasDuplicateObjects: false });
  const doc = (s: string, mustRefuse?: string): Body => ({
    body: Buffer.from(s),
    contentType,
    ...(mustRefuse ? { mustRefuse } : {}),
  });
  switch (rng.int(12)) {
    case 0:
      return doc(`${text}extra: &x {a: 1}\nmore: *x\n`);
    case 1:
      return doc(`${text}extra: *nope\n`, "an unresolved YAML alias");
    case 2:
      return doc(`${text}${aliasBomb()}`, "a YAML alias bomb");
    case 3:
      return doc(`${text}extra: &s [*s]\n`, "a YAML anchor that contains itself");
    case 4:
      return doc(`base: &b {x: 1}\n${text}extra:\n  <<: *b\n  y: 2\n`);
    case 5:
      return doc(`${text}extra: !!binary aGVsbG8=\nodd: !custom-tag {a: 1}\n`);
    case 6:
      return doc(`${text}---\n${text}`);
    case 7:
      return doc(`${text}\n  bad: indentation\n - x\n`);
    case 8:
      return doc(`${text}extra: !!js/undefined ~\n`);
    case 9:
      return doc(`%YAML 1.1\n---\n${text}`);
    default:
      return doc(text);
  }
}

const VECTORS = [...KUBECTL_VECTORS, ...KUBECTL_WORKLOAD_VECTORS];

/** A protobuf body and the path it was captured for (the POST path of its kind). */
export function protobufBody(rng: Prng): Body & { path: string } {
  const v = rng.pick(VECTORS);
  let bytes: Buffer = Buffer.from(v.body, "base64");
  const r = rng.next();
  if (r < 0.2) bytes = bytes.subarray(0, 4 + rng.int(bytes.length - 4));
  else if (r < 0.45) {
    bytes = Buffer.from(bytes);
    for (let i = 0, n = 1 + rng.int(4); i < n; i++)
      bytes[4 + rng.int(bytes.length - 4)] = rng.int(256);
  } else if (r < 0.55) {
    const at = 4 + rng.int(bytes.length - 4);
    const junk = Buffer.from(Array.from({ length: 1 + rng.int(16) }, () => rng.int(256)));
    bytes = Buffer.concat([bytes.subarray(0, at), junk, bytes.subarray(at)]);
  } else if (r < 0.6) bytes = Buffer.concat([Buffer.from("k9s\0"), bytes.subarray(4)]);
  else if (r < 0.7) {
    const [apiVersion, kind] = rng.pick([
      ["v1", "ConfigMap"],
      ["v1", "Bogus"],
      ["", ""],
      ["stable.example.com/v1", "CronTab"],
      ["v1", "DeleteOptions"],
      ["\u0000", "😀"],
    ] as const);
    const raw = rng.pick([
      [],
      lField(1, lField(1, "fz-pb"), lField(3, "fuzz")),
      vField(1, 2n ** 63n),
      lField(1, lField(1, "x".repeat(70_000))),
      [0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f],
      lField(99, [1, 2, 3]),
    ]);
    bytes = envelope(apiVersion, kind, raw);
  }
  return { body: bytes, contentType: PROTOBUF, path: v.path };
}
