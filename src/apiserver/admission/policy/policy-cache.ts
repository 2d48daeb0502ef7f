/**
 * The in-memory view of stored ValidatingAdmissionPolicies and their bindings,
 * kept in step by a list plus a storage watch per kind, relisted if the watch
 * breaks. Writes through this apiserver wait for `followed()` progress
 * (store/cache-sync.ts), so a policy applies to the very next request. Each policy's CEL is
 * compiled on first use and kept until its generation changes.
 */
import type { Backend, StorageEvent } from "../../../storage/index.js";
import { type FollowedPrefix, followPrefix, WatchProgress } from "../../store/cache-sync.js";
import { collectionPrefix } from "../../store/keys.js";
import { decodeObject } from "../../store/object-store.js";
import type { Binding, Policy } from "./api-types.js";
import { type CompiledPolicy, compilePolicy } from "./compiled-policy.js";
import { bindingResourceType, policyResourceType } from "./resource-types.js";

interface PolicyEntry {
  policy: Policy;
  compiled?: CompiledPolicy;
}

/** A policy with the bindings that name it, both sorted by name. */
export interface BoundPolicy {
  policy: Policy;
  /** The policy's CEL, compiled on first call for this generation. */
  compiled(): CompiledPolicy;
  bindings: Binding[];
}

export class PolicyCache {
  private readonly policies = new Map<string, PolicyEntry>();
  private readonly bindings = new Map<string, Binding>();
  private snapshot?: { entry: PolicyEntry; bindings: Binding[] }[];
  /** How many times a policy was compiled (tests check the per-generation cache). */
  compilations = 0;

  private readonly policyProgress = new WatchProgress();
  private readonly bindingProgress = new WatchProgress();

  constructor(
    private readonly backend: Backend,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
  ) {}

  /** Loads every policy and binding, then follows changes until `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    await Promise.all([
      this.follow(
        collectionPrefix(policyResourceType),
        (ev) => this.onPolicy(ev),
        () => this.policies.clear(),
        this.policyProgress,
        signal,
      ),
      this.follow(
        collectionPrefix(bindingResourceType),
        (ev) => this.onBinding(ev),
        () => this.bindings.clear(),
        this.bindingProgress,
        signal,
      ),
    ]);
  }

  /** The prefixes this cache follows, with how far each has been delivered. */
  followed(): FollowedPrefix[] {
    return [
      { prefix: collectionPrefix(policyResourceType), progress: this.policyProgress },
      { prefix: collectionPrefix(bindingResourceType), progress: this.bindingProgress },
    ];
  }

  /** Policies that have at least one binding, with their bindings. */
  bound(): BoundPolicy[] {
    this.snapshot ??= this.group();
    return this.snapshot.map(({ entry, bindings }) => ({
      policy: entry.policy,
      bindings,
      compiled: () => this.compiled(entry),
    }));
  }

  /** Loads `prefix` (after `reset`), then follows it; a broken watch (etcd restarted) relists. */
  private follow(
    prefix: string,
    onEvent: (ev: StorageEvent) => void,
    reset: () => void,
    progress: WatchProgress,
    signal: AbortSignal,
  ): Promise<void> {
    return followPrefix(
      this.backend,
      prefix,
      {
        load: (items) => {
          reset();
          for (const kv of items) onEvent({ type: "put", kv });
          this.snapshot = undefined;
        },
        onEvent,
      },
      { what: `admission policy ${prefix}`, progress, signal, log: this.log },
    );
  }

  private onPolicy(ev: StorageEvent): void {
    const policy = decodeObject(ev.kv) as Policy;
    const name = policy.metadata.name!;
    const before = this.policies.get(name);
    if (ev.type === "delete") this.policies.delete(name);
    else if (before && sameGeneration(before.policy, policy)) before.policy = policy;
    else this.policies.set(name, { policy });
    this.snapshot = undefined;
  }

  private onBinding(ev: StorageEvent): void {
    const binding = decodeObject(ev.kv) as Binding;
    if (ev.type === "delete") this.bindings.delete(binding.metadata.name!);
    else this.bindings.set(binding.metadata.name!, binding);
    this.snapshot = undefined;
  }

  private compiled(entry: PolicyEntry): CompiledPolicy {
    if (!entry.compiled) {
      entry.compiled = compilePolicy(entry.policy.spec ?? {});
      this.compilations++;
    }
    return entry.compiled;
  }

  /** Bindings whose policy exists, grouped under it; a binding of a missing policy is skipped. */
  private group(): { entry: PolicyEntry; bindings: Binding[] }[] {
    const byPolicy = new Map<string, Binding[]>();
    for (const b of [...this.bindings.values()].sort(byName)) {
      const name = b.spec?.policyName ?? "";
      if (!this.policies.has(name)) continue;
      byPolicy.set(name, [...(byPolicy.get(name) ?? []), b]);
    }
    return [...byPolicy.keys()].sort().map((name) => ({
      entry: this.policies.get(name)!,
      bindings: byPolicy.get(name)!,
    }));
  }
}

function sameGeneration(a: Policy, b: Policy): boolean {
  return a.metadata.uid === b.metadata.uid && a.metadata.generation === b.metadata.generation;
}

function byName(a: Binding, b: Binding): number {
  const x = a.metadata.name ?? "";
  const y = b.metadata.name ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}
