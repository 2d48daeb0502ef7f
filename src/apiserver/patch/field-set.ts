/**
 * A set of field paths (structured-merge-diff `fieldpath.Set`) and its FieldsV1
 * form: nested maps keyed by path element, `{}` for a leaf, and `".": {}` marking
 * a node that is itself in the set and also has children. Iteration follows SMD's
 * order, so serialized sets and conflict lists are deterministic.
 */
import type { FieldsV1 } from "../../api/types.js";
import {
  compareElements,
  type FieldPath,
  normalizeElement,
  type PathElement,
} from "./field-path.js";

interface SetNode {
  member: boolean;
  children: Map<PathElement, SetNode>;
}

const newNode = (): SetNode => ({ member: false, children: new Map() });

function hasMember(node: SetNode): boolean {
  for (const child of node.children.values()) if (child.member || hasMember(child)) return true;
  return false;
}

/**
 * A new tree of the paths whose membership in `a` and `b` satisfies `keep`, without
 * subtrees that hold no member (the same tree as inserting those paths one by one).
 * `bOnly`: whether a child only `b` has can hold kept paths (true for a union).
 */
function combine(
  a: SetNode | undefined,
  b: SetNode | undefined,
  keep: (inA: boolean, inB: boolean) => boolean,
  bOnly: boolean,
): SetNode | undefined {
  const out = newNode();
  out.member = keep(a?.member ?? false, b?.member ?? false);
  const visit = (pe: PathElement) => {
    const child = combine(a?.children.get(pe), b?.children.get(pe), keep, bOnly);
    if (child) out.children.set(pe, child);
  };
  if (a) for (const pe of a.children.keys()) visit(pe);
  if (b && bOnly) for (const pe of b.children.keys()) if (!a?.children.has(pe)) visit(pe);
  return out.member || out.children.size > 0 ? out : undefined;
}

export class FieldSet {
  private constructor(private readonly root: SetNode) {}

  static empty(): FieldSet {
    return new FieldSet(newNode());
  }

  static of(paths: Iterable<FieldPath>): FieldSet {
    const set = FieldSet.empty();
    for (const path of paths) set.insert(path);
    return set;
  }

  /** Reads a FieldsV1 value; throws on a malformed path element. */
  static fromFieldsV1(fields: FieldsV1): FieldSet {
    const read = (obj: FieldsV1, node: SetNode): void => {
      for (const [key, value] of Object.entries(obj)) {
        if (key === ".") {
          node.member = true;
          continue;
        }
        const pe = normalizeElement(key);
        const child = node.children.get(pe) ?? newNode();
        node.children.set(pe, child);
        if (typeof value !== "object" || value === null || Object.keys(value).length === 0) {
          child.member = true;
        } else {
          read(value, child);
        }
      }
    };
    const root = newNode();
    read(fields, root);
    return new FieldSet(root);
  }

  insert(path: FieldPath): void {
    if (path.length === 0) return;
    let node = this.root;
    for (const pe of path) {
      let child = node.children.get(pe);
      if (!child) {
        child = newNode();
        node.children.set(pe, child);
      }
      node = child;
    }
    node.member = true;
  }

  has(path: FieldPath): boolean {
    let node: SetNode | undefined = this.root;
    for (const pe of path) {
      node = node.children.get(pe);
      if (!node) return false;
    }
    return path.length > 0 && node.member;
  }

  /** The paths under `pe`, relative to it (SMD `WithPrefix`); shares structure, do not modify. */
  withPrefix(pe: PathElement): FieldSet {
    return new FieldSet(this.root.children.get(pe) ?? newNode());
  }

  isEmpty(): boolean {
    return !hasMember(this.root);
  }

  /** Every path, in SMD order: a level's members first, then each child's subtree. */
  paths(): FieldPath[] {
    const out: FieldPath[] = [];
    const walk = (node: SetNode, prefix: PathElement[]): void => {
      const sorted = [...node.children.entries()].sort(([a], [b]) => compareElements(a, b));
      for (const [pe, child] of sorted) if (child.member) out.push([...prefix, pe]);
      for (const [pe, child] of sorted) walk(child, [...prefix, pe]);
    };
    walk(this.root, []);
    return out;
  }

  union(other: FieldSet): FieldSet {
    return FieldSet.fromRoot(combine(this.root, other.root, (a, b) => a || b, true));
  }

  difference(other: FieldSet): FieldSet {
    return FieldSet.fromRoot(combine(this.root, other.root, (a, b) => a && !b, false));
  }

  intersection(other: FieldSet): FieldSet {
    return FieldSet.fromRoot(combine(this.root, other.root, (a, b) => a && b, false));
  }

  private static fromRoot(root: SetNode | undefined): FieldSet {
    return root ? new FieldSet({ ...root, member: false }) : FieldSet.empty();
  }

  toFieldsV1(): FieldsV1 {
    const emit = (node: SetNode, includeSelf: boolean): FieldsV1 => {
      const out: FieldsV1 = {};
      if (includeSelf && node.children.size > 0) out["."] = {};
      const sorted = [...node.children.entries()].sort(([a], [b]) => compareElements(a, b));
      for (const [pe, child] of sorted) {
        if (!child.member && child.children.size === 0) continue;
        out[pe] = emit(child, child.member);
      }
      return out;
    };
    return emit(this.root, false);
  }
}
