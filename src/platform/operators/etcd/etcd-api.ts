/**
 * The operator's calls to etcd itself (gRPC through the members' Service
 * ClusterIPs, TLS with the cluster's client certificate, CN root): membership
 * (list, add a learner, promote, remove), each member's status, and turning
 * auth on. One EtcdApi lives for one reconcile and is closed after it.
 */
import type { Etcd3, IMember, IStatusResponse } from "etcd3";
import { dialEtcd, type EtcdCredentials } from "./dial.js";

export type { EtcdCredentials } from "./dial.js";

export interface Membership {
  clusterId: string;
  members: IMember[];
}

/** etcd's uint64 member and cluster IDs as etcdctl prints them (hex). */
export const hexId = (id: string) => BigInt(id).toString(16);

export class EtcdApi {
  private readonly clients = new Map<string, Promise<Etcd3>>();

  constructor(
    /** `https://<member ClusterIP>:2379` of each member that may answer. */
    private readonly endpoints: string[],
    private readonly creds: EtcdCredentials,
  ) {}

  private any(): Promise<Etcd3> {
    return this.client(this.endpoints.join(","));
  }

  private client(key: string): Promise<Etcd3> {
    let c = this.clients.get(key);
    if (!c) {
      c = dialEtcd(key.split(","), this.creds);
      this.clients.set(key, c);
    }
    return c;
  }

  async membership(): Promise<Membership> {
    const res = await (await this.any()).cluster.memberList({ linearizable: true });
    return { clusterId: res.header.cluster_id, members: res.members ?? [] };
  }

  /** The member's own status, or undefined when it does not answer in time. */
  async status(endpoint: string): Promise<IStatusResponse | undefined> {
    try {
      return await (await this.client(endpoint)).maintenance.status();
    } catch {
      return undefined;
    }
  }

  async addLearner(peerUrl: string): Promise<IMember> {
    return (await (await this.any()).cluster.memberAdd({ peerURLs: [peerUrl], isLearner: true }))
      .member;
  }

  /** Fails (and is retried by the caller's requeue) until the learner has caught up. */
  async promote(id: string): Promise<void> {
    await (await this.any()).cluster.memberPromote({ ID: id });
  }

  async remove(id: string): Promise<void> {
    await (await this.any()).cluster.memberRemove({ ID: id });
  }

  /**
   * Role and user `root` (no password: the client certificate's CN
   * authenticates), root granted the role, auth on. Each step tolerates
   * having been done before.
   */
  async enableRootAuth(): Promise<void> {
    const auth = (await this.any()).auth;
    const exists = (e: unknown) => /already exists/.test(String((e as Error).message));
    await auth.roleAdd({ name: "root" }).catch((e) => {
      if (!exists(e)) throw e;
    });
    await auth.userAdd({ name: "root", options: { no_password: true } }).catch((e) => {
      if (!exists(e)) throw e;
    });
    await auth.userGrantRole({ user: "root", role: "root" });
    await auth.authEnable();
  }

  close(): void {
    for (const c of this.clients.values())
      void c.then(
        (client) => client.close(),
        () => {},
      );
    this.clients.clear();
  }
}
