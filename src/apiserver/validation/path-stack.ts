/**
 * The field path of the node a walker is at, kept as a stack of keys and list
 * indexes and rendered (`spec.items[0].name`) only when an error or an unknown
 * field names it: most nodes of a valid object never need their path.
 */
import { childPath, indexPath } from "./schema-nav.js";

/** A field path that is built only when called. */
export type LazyPath = () => string;

export class PathStack {
  private readonly segments: (string | number)[] = [];

  /** The path of the current node, as `childPath`/`indexPath` would have built it. */
  readonly render: LazyPath = () => {
    let path = "";
    for (const s of this.segments)
      path = typeof s === "number" ? indexPath(path, s) : childPath(path, s);
    return path;
  };

  /** Descends into an object key or a list index. */
  push(segment: string | number): void {
    this.segments.push(segment);
  }

  pop(): void {
    this.segments.pop();
  }
}
