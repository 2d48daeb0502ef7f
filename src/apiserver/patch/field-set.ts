/**
 * A set of field paths (structured-merge-diff `fieldpath.Set`) and its FieldsV1
 * form: nested maps keyed by path element, `{}` for a leaf, and `".": {}` marking
 * a node that is itself in the set and also has children. Iteration follows SMD's
 * order, so serialized sets and conflict lists are deterministic.
 */
import type { FieldsV1 } from "../../api/index.js";
import {
  compareElements,
  type FieldPath,
  normalizeElement,
  type PathElement,
} from "./field-path.js";

interface SetNode {
  member: boolean;
  /** Absent or non-empty; absent on leaves, which are most nodes (a Map is the costly part). */
  children?: Map<PathElement, SetNode>;
}

// Every node but a root is a member or has one below it: `insert` creates nodes
// only on the way to a member, FieldsV1 has no empty inner entries, and the set
// operations drop the nodes they empty. So where one operand has a subtree the
// other does not reach, the result shares that subtree instead of copying it.

const newNode = (): SetNode => ({ member: false });

function childOf(node: SetNode, pe: PathElement): SetNode {
  node.children ??= new Map();
  let child = node.children.get(pe);
  if (!child) {
    child = newNode();
    node.children.set(pe, child);
  }
  return child;
}

function hasMember(node: SetNode): boolean {
  if (node.children)
    for (const child of node.children.values()) if (child.member || hasMember(child)) return true;
  return false;
}

/** A node with this membership and these children; undefined when that is empty. */
function nodeOf(
  member: boolean,
  children: Map<PathElement, SetNode> | undefined,
): SetNode | undefined {
  if (children && children.size > 0) return { member, children };
  return member ? { member } : undefined;
}

function union(a: SetNode | undefined, b: SetNode | undefined): SetNode | undefined {
  if (!a) return b;
  if (!b) return a;
  const member = a.member || b.member;
  if (!b.children) return member === a.member ? a : nodeOf(member, a.children);
  if (!a.children) return member === b.member ? b : nodeOf(member, b.children);
  const children = new Map(a.children);
  for (const [pe, child] of b.children) children.set(pe, union(a.children.get(pe), child)!);
  return { member, children };
}

/** The paths of `a` not in `b`; `a` itself when `b` takes nothing from it. */
function difference(a: SetNode, b: SetNode | undefined): SetNode | undefined {
  if (!b) return a;
  const member = a.member && !b.member;
  const mine = a.children;
  const theirs = b.children;
  if (!mine || !theirs) return member === a.member ? a : nodeOf(member, mine);
  // Only a child both have can change; find those from the side with fewer.
  let changed: [PathElement, SetNode | undefined][] | undefined;
  let emptied = 0;
  for (const pe of (mine.size <= theirs.size ? mine : theirs).keys()) {
    const child = mine.get(pe);
    if (!child) continue;
    const kept = difference(child, theirs.get(pe));
    if (kept === child) continue;
    changed ??= [];
    changed.push([pe, kept]);
    if (!kept) emptied++;
  }
  if (!changed) return member === a.member ? a : nodeOf(member, mine);
  if (emptied === mine.size) return nodeOf(member, undefined);
  const children = new Map(mine);
  for (const [pe, kept] of changed) {
    if (kept) children.set(pe, kept);
    else children.delete(pe);
  }
  return nodeOf(member, children);
}

function intersection(a: SetNode | undefined, b: SetNode | undefined): SetNode | undefined {
  if (!a || !b) return undefined;
  const member = a.member && b.member;
  if (!a.children || !b.children) return nodeOf(member, undefined);
  const [small, large] = a.children.size <= b.children.size ? [a, b] : [b, a];
  const children = new Map<PathElement, SetNode>();
  for (const [pe, child] of small.children!) {
    const both = intersection(child, large.children!.get(pe));
    if (both) children.set(pe, both);
  }
  return nodeOf(member, children);
}

/** A node's child elements in SMD order. */
function sortedElements(node: SetNode): PathElement[] {
  const elements: PathElement[] = [];
  if (node.children) for (const pe of node.children.keys()) elements.push(pe);
  if (elements.length > 16) return elements.sort(compareElements);
  // Insertion sort: children are few, and for a few it beats Array.prototype.sort.
  for (let i = 1; i < elements.length; i++) {
    const pe = elements[i]!;
    let j = i - 1;
    for (; j >= 0 && compareElements(elements[j]!, pe) > 0; j--) elements[j + 1] = elements[j]!;
    elements[j + 1] = pe;
  }
  return elements;
}

/**
 * Sets are built by `insert` and then only read: the results of `union`,
 * `difference`, `intersection` and `withPrefix` share nodes with their operands,
 * so those operations seal every set involved, and `insert` refuses a sealed set.
 */
export class FieldSet {
  private sealed = false;

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
        const child = childOf(node, normalizeElement(key));
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

  /** Adds `path`; the path array is read, not kept. Throws once the set is sealed. */
  insert(path: FieldPath): void {
    if (this.sealed) throw new Error("a FieldSet is read-only once combined or shared");
    if (path.length === 0) return;
    let node = this.root;
    for (const pe of path) node = childOf(node, pe);
    node.member = true;
  }

  has(path: FieldPath): boolean {
    let node: SetNode | undefined = this.root;
    for (const pe of path) {
      node = node.children?.get(pe);
      if (!node) return false;
    }
    return path.length > 0 && node.member;
  }

  /** The paths under `pe`, relative to it (SMD `WithPrefix`); shares structure. */
  withPrefix(pe: PathElement): FieldSet {
    this.sealed = true;
    return FieldSet.shared(this.root.children?.get(pe));
  }

  isEmpty(): boolean {
    return !hasMember(this.root);
  }

  /** Every path, in SMD order: a level's members first, then each child's subtree. */
  paths(): FieldPath[] {
    const out: FieldPath[] = [];
    const walk = (node: SetNode, prefix: PathElement[]): void => {
      const sorted = sortedElements(node);
      for (const pe of sorted) if (node.children!.get(pe)!.member) out.push([...prefix, pe]);
      for (const pe of sorted) walk(node.children!.get(pe)!, [...prefix, pe]);
    };
    walk(this.root, []);
    return out;
  }

  union(other: FieldSet): FieldSet {
    return this.combined(other, union(this.root, other.root));
  }

  difference(other: FieldSet): FieldSet {
    return this.combined(other, difference(this.root, other.root));
  }

  intersection(other: FieldSet): FieldSet {
    return this.combined(other, intersection(this.root, other.root));
  }

  private combined(other: FieldSet, root: SetNode | undefined): FieldSet {
    this.sealed = true;
    other.sealed = true;
    return FieldSet.shared(root);
  }

  /** A sealed set over `root`; whether the root is a member never matters (no path is empty). */
  private static shared(root: SetNode | undefined): FieldSet {
    const set = new FieldSet(root ?? newNode());
    set.sealed = true;
    return set;
  }

  toFieldsV1(): FieldsV1 {
    const emit = (node: SetNode, includeSelf: boolean): FieldsV1 => {
      const out: FieldsV1 = {};
      if (includeSelf && node.children) out["."] = {};
      for (const pe of sortedElements(node)) {
        const child = node.children!.get(pe)!;
        if (!child.member && !child.children) continue;
        out[pe] = emit(child, child.member);
      }
      return out;
    };
    return emit(this.root, false);
  }
}
