/** The authorizer union and system:masters: first allow wins, reasons joined, sync or async members. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { privilegedGroups, unionAuthorizer } from "./authorizer-union.js";
import type { AuthorizationAttributes, Authorizer, Decision, UserInfo } from "./types.js";

function attrs(user: UserInfo): AuthorizationAttributes {
  return {
    user,
    verb: "get",
    isResourceRequest: true,
    path: "/api/v1/pods",
    apiGroup: "",
    apiVersion: "v1",
    resource: "pods",
    subresource: "",
    namespace: "",
    name: "",
  };
}

const admin = attrs({ username: "admin", groups: ["system:masters", "system:authenticated"] });
const dev = attrs({ username: "dev", groups: ["system:authenticated"] });

const decides = (d: Decision): Authorizer => ({ authorize: () => d });
const decidesLater = (d: Decision): Authorizer => ({ authorize: async () => d });
const allowed = (reason: string): Decision => ({ allowed: true, reason });
const denied = (reason: string): Decision => ({ allowed: false, reason });

describe("privilegedGroups", () => {
  it("allows members of its groups and has no opinion on anyone else", () => {
    assert.deepEqual(privilegedGroups().authorize(admin), { allowed: true, reason: "" });
    assert.deepEqual(privilegedGroups().authorize(dev), { allowed: false, reason: "" });
    assert.deepEqual(privilegedGroups(["ops", "system:authenticated"]).authorize(dev), {
      allowed: true,
      reason: "",
    });
  });
});

describe("unionAuthorizer", () => {
  it("answers at once while its members do: the first allow, else the reasons joined", () => {
    const a = allowed("RBAC: allowed by x");
    assert.equal(
      unionAuthorizer([decides(denied("one")), decides(a), decides(denied("z"))]).authorize(dev),
      a,
    );
    assert.deepEqual(
      unionAuthorizer([
        decides(denied("one")),
        decides(denied("")),
        decides(denied("two")),
      ]).authorize(dev),
      { allowed: false, reason: "one\ntwo" },
    );
    assert.deepEqual(unionAuthorizer([]).authorize(dev), { allowed: false, reason: "" });
    assert.deepEqual(unionAuthorizer([privilegedGroups()]).authorize(admin), {
      allowed: true,
      reason: "",
    });
  });

  it("waits for members that answer later, keeping order and reasons", async () => {
    const a = allowed("later");
    const union = unionAuthorizer([
      decides(denied("one")),
      decidesLater(denied("two")),
      decides(denied("")),
      decidesLater(a),
    ]);
    const answer = union.authorize(dev);
    assert.ok(answer instanceof Promise);
    assert.equal(await answer, a);
    assert.deepEqual(
      await unionAuthorizer([
        decidesLater(denied("one")),
        decides(denied("two")),
        decidesLater(denied("three")),
      ]).authorize(dev),
      { allowed: false, reason: "one\ntwo\nthree" },
    );
  });

  it("lets a member's failure through", async () => {
    const failing: Authorizer = {
      authorize: () => {
        throw new Error("broken");
      },
    };
    assert.throws(() => unionAuthorizer([decides(denied("")), failing]).authorize(dev), /broken/);
    const rejecting: Authorizer = { authorize: async () => Promise.reject(new Error("gone")) };
    await assert.rejects(async () => unionAuthorizer([rejecting]).authorize(dev), /gone/);
  });
});
