/**
 * The generic store of API objects on a storage Backend: key mapping, decoding
 * (resourceVersion is the storage revision), storage errors turned into API errors,
 * paged and filtered lists. It knows nothing of HTTP; handlers call it. A type with
 * a `storage` mapping is read and written under the mapped resource's keys and
 * converted on the way (`storedResource`, `decodeAs`, `encodeAs`).
 */

import type { KubeObject } from "../../api/index.js";
import {
  AlreadyExistsError,
  ConflictError,
  ExpiredError,
  InternalError,
  NotFoundError,
  STALE_OBJECT_MESSAGE,
} from "../../api/index.js";
import type { Backend, KeyValue } from "../../storage/index.js";
import {
  CompactedError,
  KeyExistsError,
  KeyNotFoundError,
  RevisionMismatchError,
} from "../../storage/index.js";
import { assertEncodedDepth } from "../http/body-depth.js";
import type { ResourceType } from "../resources/resource-type.js";
import { decodeContinue, encodeContinue } from "./continue-token.js";
import { listPrefix, objectKey } from "./keys.js";
import { waitForRevision } from "./revision-wait.js";

export interface ListQuery {
  namespace?: string;
  limit?: number;
  continue?: string;
  /**
   * `resourceVersion` of the request: absent or 0 → current. Otherwise the list is
   * not older than it (waiting for it as `waitForRevision` does), and read exactly
   * at it when paging (`limit`) or when `resourceVersionMatch` is "Exact".
   */
  resourceVersion?: number;
  resourceVersionMatch?: "Exact" | "NotOlderThan";
  /** Kept items; absent keeps all. */
  filter?: (obj: KubeObject) => boolean;
}

export interface RawListPage {
  /** Each item's JSON. */
  items: string[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface ListPage {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Parses the stored JSON and sets the revision as resourceVersion. */
export function decodeObject(kv: KeyValue): KubeObject {
  const obj = JSON.parse(kv.value) as KubeObject;
  obj.metadata.resourceVersion = String(kv.modRevision);
  return obj;
}

/**
 * The stored form: the object without its resourceVersion (the revision is the
 * truth), with `apiVersion`, `kind` and `metadata` first so `rawWithRevision` can
 * add the resourceVersion without parsing.
 */
export function encodeObject(obj: KubeObject): string {
  const { resourceVersion: _rv, ...metadata } = obj.metadata;
  const { apiVersion, kind, metadata: _m, ...rest } = obj;
  return JSON.stringify({ apiVersion, kind, metadata, ...rest });
}

const METADATA_OPEN = '"metadata":{';

/** The stored JSON with `metadata.resourceVersion` set, by string splicing when the layout allows. */
export function rawWithRevision(kv: KeyValue): string {
  const v = kv.value;
  const at = v.indexOf(METADATA_OPEN);
  const open = at + METADATA_OPEN.length;
  // metadata must be the first nested object, i.e. a top-level key (encodeObject's layout).
  if (at > 0 && v.indexOf("{", 1) === open - 1) {
    const rv = `"resourceVersion":${JSON.stringify(String(kv.modRevision))}`;
    return `${v.slice(0, open)}${rv}${v[open] === "}" ? "" : ","}${v.slice(open)}`;
  }
  return JSON.stringify(decodeObject(kv));
}

/** The type whose keys hold `t`'s objects: `t` itself unless it maps its storage elsewhere. */
export function storedResource<T extends Pick<ResourceType, "group" | "plural" | "storage">>(
  t: T,
): T {
  return t.storage ? { ...t, ...t.storage.resource } : t;
}

/** A stored object in `t`'s form. */
export function decodeAs(t: Pick<ResourceType, "storage">, kv: KeyValue): KubeObject {
  const obj = decodeObject(kv);
  return t.storage ? t.storage.fromStorage(obj) : obj;
}

/** `t`'s object in the stored form. */
export function encodeAs(t: Pick<ResourceType, "storage">, obj: KubeObject): string {
  return encodeObject(t.storage ? t.storage.toStorage(obj) : obj);
}

/** The stored form of an object being written, refused (400) if it nests past the body limit. */
function encodeForWrite(t: Pick<ResourceType, "storage">, obj: KubeObject): string {
  const text = encodeAs(t, obj);
  assertEncodedDepth(text);
  return text;
}

export function tooOldMessage(requested: number, compacted: number): string {
  return `too old resource version: ${requested} (${compacted})`;
}

export class ObjectStore {
  constructor(readonly backend: Backend) {}

  /**
   * The object as it is now; with `minRevision`, once the server has reached that
   * revision (504 TooLargeResourceVersion if it does not within the wait).
   */
  async get(
    t: ResourceType,
    namespace: string | undefined,
    name: string,
    minRevision = 0,
  ): Promise<KubeObject> {
    if (minRevision > 0) await waitForRevision(this.backend, minRevision);
    const kv = await this.backend.get(objectKey(storedResource(t), namespace, name));
    if (!kv) throw new NotFoundError({ group: t.group, resource: t.plural, name });
    return decodeAs(t, kv);
  }

  async tryGet(
    t: ResourceType,
    namespace: string | undefined,
    name: string,
  ): Promise<KubeObject | undefined> {
    const kv = await this.backend.get(objectKey(storedResource(t), namespace, name));
    return kv ? decodeAs(t, kv) : undefined;
  }

  async create(t: ResourceType, obj: KubeObject): Promise<KubeObject> {
    const name = obj.metadata.name ?? "";
    try {
      const kv = await this.backend.create(
        objectKey(storedResource(t), obj.metadata.namespace, name),
        encodeForWrite(t, obj),
      );
      return decodeAs(t, kv);
    } catch (e) {
      if (e instanceof KeyExistsError)
        throw new AlreadyExistsError({ group: t.group, resource: t.plural, name }, { cause: e });
      throw e;
    }
  }

  /** Writes `obj` if the stored revision is still `expectedRevision`. */
  async update(t: ResourceType, obj: KubeObject, expectedRevision: number): Promise<KubeObject> {
    const name = obj.metadata.name ?? "";
    try {
      const kv = await this.backend.update(
        objectKey(storedResource(t), obj.metadata.namespace, name),
        encodeForWrite(t, obj),
        expectedRevision,
      );
      return decodeAs(t, kv);
    } catch (e) {
      throw translateWriteError(t, name, e);
    }
  }

  /** Removes the object if it is still at `expectedRevision`; returns its last state. */
  async remove(t: ResourceType, obj: KubeObject, expectedRevision: number): Promise<KubeObject> {
    const name = obj.metadata.name ?? "";
    try {
      const kv = await this.backend.delete(
        objectKey(storedResource(t), obj.metadata.namespace, name),
        expectedRevision,
      );
      return decodeAs(t, kv);
    } catch (e) {
      throw translateWriteError(t, name, e);
    }
  }

  /**
   * One page of a list. With a filter, pages are filled by reading on until `limit`
   * matching items are found, as kube-apiserver does over etcd.
   */
  async list(t: ResourceType, q: ListQuery): Promise<ListPage> {
    const items: KubeObject[] = [];
    const page = await this.scan(t, q, (kv) => {
      const obj = decodeAs(t, kv);
      if (q.filter && !q.filter(obj)) return false;
      items.push(obj);
      return true;
    });
    return { items, ...page };
  }

  /**
   * The same list as JSON strings, without parsing each object: the fast path of
   * an unfiltered LIST of a kind stored as itself. Undefined when it does not apply.
   */
  async listRaw(t: ResourceType, q: ListQuery): Promise<RawListPage | undefined> {
    if (q.filter || t.storage) return undefined;
    const items: string[] = [];
    const page = await this.scan(t, q, (kv) => {
      items.push(rawWithRevision(kv));
      return true;
    });
    return { items, ...page };
  }

  /**
   * Reads pages from the backend at one revision and offers each item to `keep`
   * until `limit` items were kept. With a filter, pages are filled by reading on,
   * as kube-apiserver does over etcd.
   */
  private async scan(
    t: ResourceType,
    q: ListQuery,
    keep: (kv: KeyValue) => boolean,
  ): Promise<Omit<ListPage, "items">> {
    const prefix = listPrefix(storedResource(t), q.namespace);
    let after: string | undefined;
    let revision = 0;
    if (q.continue) {
      const point = decodeContinue(q.continue, prefix);
      after = point.after;
      revision = point.revision;
    } else if (
      q.resourceVersion &&
      (q.resourceVersionMatch === "Exact" || (q.resourceVersionMatch === undefined && q.limit))
    ) {
      // kube: "Exact", or the legacy paged read at the given revision.
      revision = q.resourceVersion;
    }
    // A revision the backend has not reached (a future resourceVersion, a forged token) is waited for.
    const minimum = Math.max(revision, q.resourceVersion ?? 0);
    if (minimum > 0) await waitForRevision(this.backend, minimum);
    const limit = q.limit && q.limit > 0 ? q.limit : 0;
    let kept = 0;
    try {
      for (;;) {
        const chunk = limit ? Math.max(limit - kept, 100) : 0;
        const page = await this.backend.list(prefix, { limit: chunk, after, revision });
        revision = page.revision;
        for (let i = 0; i < page.items.length; i++) {
          const kv = page.items[i]!;
          after = kv.key;
          if (!keep(kv)) continue;
          if (limit && ++kept === limit) {
            const rest = page.items.length - 1 - i;
            const more = page.more || rest > 0;
            return {
              resourceVersion: String(revision),
              ...(more ? { continue: encodeContinue({ revision, after: kv.key }) } : {}),
              ...(more && !q.filter && page.remaining !== undefined
                ? { remainingItemCount: page.remaining + rest }
                : {}),
            };
          }
        }
        if (!page.more) return { resourceVersion: String(revision) };
      }
    } catch (e) {
      if (e instanceof CompactedError) {
        throw new ExpiredError(
          q.continue
            ? "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list."
            : tooOldMessage(e.requested, e.compacted),
          { cause: e },
        );
      }
      throw e;
    }
  }

  async count(t: ResourceType, namespace?: string): Promise<number> {
    return this.backend.count(listPrefix(storedResource(t), namespace));
  }
}

function translateWriteError(t: ResourceType, name: string, e: unknown): Error {
  const ref = { group: t.group, resource: t.plural, name };
  if (e instanceof KeyNotFoundError) return new NotFoundError(ref, { cause: e });
  if (e instanceof RevisionMismatchError)
    return new ConflictError(ref, STALE_OBJECT_MESSAGE, { cause: e });
  if (e instanceof Error) return e;
  return new InternalError(String(e));
}
