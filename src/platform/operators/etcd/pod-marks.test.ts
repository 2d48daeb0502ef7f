import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Pod } from "../../../api/index.js";
import type { Client, ObjectRef } from "../../../client/index.js";
import type { ObservedMember } from "./plan.js";
import { CERTS_ANNOTATION, labelRoles, markCertificates } from "./pod-marks.js";

/** Records merge patches. */
function recorder() {
  const patches: [string, unknown][] = [];
  const client = {
    async patch({ name }: ObjectRef, body: unknown) {
      patches.push([name, body]);
      return {};
    },
  } as unknown as Client;
  return { client, patches };
}

const pod = (
  name: string,
  labels: Record<string, string> = {},
  extra: Partial<Pod["metadata"]> = {},
): Pod => ({
  apiVersion: "v1",
  kind: "Pod",
  metadata: {
    name,
    namespace: "ns",
    labels: { "app.kubernetes.io/component": name, ...labels },
    ...extra,
  },
  spec: { containers: [] },
});

const member = (name: string, over: Partial<ObservedMember>): ObservedMember => ({
  name,
  created: "",
  deleting: false,
  pending: false,
  ready: true,
  ...over,
});

describe("marks on members' pods", () => {
  it("labels voters, learners and leaving members, and only what changed", async () => {
    const { client, patches } = recorder();
    await labelRoles(
      client,
      [pod("a"), pod("b"), pod("c", { "etcd.hearth.io/role": "voter" }), pod("d"), pod("e")],
      [
        member("a", { etcd: { id: "1", learner: false, healthy: true } }),
        member("b", { etcd: { id: "2", learner: true, healthy: true } }),
        member("c", { etcd: { id: "3", learner: false, healthy: true } }),
        member("d", { deleting: true, etcd: { id: "4", learner: false, healthy: true } }),
        member("e", { pending: true }),
      ],
    );
    const role = (r: string) => ({ metadata: { labels: { "etcd.hearth.io/role": r } } });
    assert.deepEqual(patches, [
      ["a", role("voter")],
      ["b", role("learner")],
      ["d", role("leaving")],
    ]);
  });

  it("annotates running pods with the certificates' version when it changed", async () => {
    const { client, patches } = recorder();
    await markCertificates(
      client,
      [
        pod("a"),
        pod("b", {}, { annotations: { [CERTS_ANNOTATION]: "7-8" } }),
        pod("c", {}, { deletionTimestamp: "2026-01-01T00:00:00Z" }),
      ],
      "7-8",
    );
    assert.deepEqual(patches, [
      ["a", { metadata: { annotations: { [CERTS_ANNOTATION]: "7-8" } } }],
    ]);
  });
});
