/** Impersonation headers: each part authorized with `impersonate`, groups and SA defaults, refusals. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ApiError } from "../../api/index.js";
import { impersonate, requestsImpersonation } from "./impersonation.js";
import type { AuthorizationAttributes, Authorizer, UserInfo } from "./types.js";

const admin: UserInfo = { username: "admin", groups: ["system:masters", "system:authenticated"] };

/** Allows what `allow` accepts and records every question. */
function recorder(allow: (a: AuthorizationAttributes) => boolean = () => true) {
  const asked: string[] = [];
  const authorizer: Authorizer = {
    authorize(a) {
      asked.push(
        `${a.verb} ${a.apiGroup}/${a.resource}${a.subresource ? `/${a.subresource}` : ""} ${a.namespace}/${a.name}`,
      );
      return { allowed: allow(a), reason: "" };
    },
  };
  return { asked, authorizer };
}

describe("impersonate", () => {
  it("returns the authenticated user when no header asks otherwise", async () => {
    const { asked, authorizer } = recorder();
    assert.equal(await impersonate(authorizer, admin, {}), admin);
    assert.deepEqual(asked, []);
  });

  it("tells which requests ask for impersonation at all", async () => {
    const plain = {
      host: "127.0.0.1",
      authorization: "Bearer t",
      "content-type": "application/json",
      impersonate: "x",
      "x-impersonate-user": "bob",
    };
    assert.equal(requestsImpersonation(plain), false);
    const { asked, authorizer } = recorder();
    const distinct = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k, [v]]));
    assert.equal(await impersonate(authorizer, admin, distinct), admin);
    assert.deepEqual(asked, []);
    for (const name of [
      "impersonate-user",
      "impersonate-group",
      "impersonate-uid",
      "impersonate-extra-a",
    ])
      assert.equal(requestsImpersonation({ ...plain, [name]: "v" }), true, name);
  });

  it("checks the user and each group, then adds system:authenticated", async () => {
    const { asked, authorizer } = recorder();
    const u = await impersonate(authorizer, admin, {
      "impersonate-user": ["bob"],
      "impersonate-group": ["dev", "qa"],
      "impersonate-uid": ["1234"],
      "impersonate-extra-scopes": ["a", "b"],
    });
    assert.deepEqual(u, {
      username: "bob",
      groups: ["dev", "qa", "system:authenticated"],
      uid: "1234",
      extra: { scopes: ["a", "b"] },
    });
    assert.deepEqual(asked, [
      "impersonate /users /bob",
      "impersonate /groups /dev",
      "impersonate /groups /qa",
      "impersonate authentication.k8s.io/userextras/scopes /a",
      "impersonate authentication.k8s.io/userextras/scopes /b",
      "impersonate authentication.k8s.io/uids /1234",
    ]);
  });

  it("treats a ServiceAccount user as the serviceaccount resource and gives it its groups", async () => {
    const { asked, authorizer } = recorder();
    const u = await impersonate(authorizer, admin, {
      "impersonate-user": ["system:serviceaccount:team:robot"],
    });
    assert.deepEqual(u.groups, [
      "system:serviceaccounts",
      "system:serviceaccounts:team",
      "system:authenticated",
    ]);
    assert.deepEqual(asked, ["impersonate /serviceaccounts team/robot"]);
  });

  it("refuses with kube's Forbidden wording when a part is not allowed", async () => {
    const { authorizer } = recorder((a) => a.resource !== "groups");
    await assert.rejects(
      impersonate(
        { ...authorizer },
        { username: "eve", groups: [] },
        {
          "impersonate-user": ["bob"],
          "impersonate-group": ["system:masters"],
        },
      ),
      (e: unknown) =>
        e instanceof ApiError &&
        e.code === 403 &&
        e.message ===
          'groups "system:masters" is forbidden: User "eve" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
  });

  it("refuses groups without a user", async () => {
    const { authorizer } = recorder();
    await assert.rejects(
      impersonate(authorizer, admin, { "impersonate-group": ["dev"] }),
      (e: unknown) => e instanceof ApiError && e.code === 500,
    );
  });
});
