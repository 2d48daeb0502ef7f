/** The authenticator union: order, failures skipped, system:authenticated added, sync or async members. */
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { describe, it } from "node:test";
import { unionAuthenticator } from "./authenticator-union.js";
import type { Authenticator, UserInfo } from "./types.js";

const req = {} as IncomingMessage;
const alice: UserInfo = { username: "alice", groups: ["dev"] };
const bob: UserInfo = { username: "bob", groups: ["system:authenticated"] };

const answers = (user: UserInfo | undefined): Authenticator => ({ authenticate: () => user });
const later = (user: UserInfo | undefined): Authenticator => ({
  authenticate: async () => user,
});
const throwing: Authenticator = {
  authenticate: () => {
    throw new Error("bad certificate");
  },
};
const rejecting: Authenticator = { authenticate: async () => Promise.reject(new Error("expired")) };

describe("unionAuthenticator", () => {
  it("answers at once while its members do, with system:authenticated added once", () => {
    const union = unionAuthenticator([answers(undefined), answers(alice), answers(bob)]);
    assert.deepEqual(union.authenticate(req), {
      username: "alice",
      groups: ["dev", "system:authenticated"],
    });
    assert.equal(unionAuthenticator([answers(bob)]).authenticate(req), bob);
    assert.equal(unionAuthenticator([answers(undefined)]).authenticate(req), undefined);
    assert.equal(unionAuthenticator([]).authenticate(req), undefined);
  });

  it("waits for members that answer later, in order", async () => {
    const union = unionAuthenticator([
      later(undefined),
      answers(undefined),
      later(alice),
      answers(bob),
    ]);
    const answer = union.authenticate(req);
    assert.ok(answer instanceof Promise);
    assert.deepEqual(await answer, { username: "alice", groups: ["dev", "system:authenticated"] });
    assert.equal(await unionAuthenticator([later(undefined)]).authenticate(req), undefined);
  });

  it("logs a member that fails and asks the next", async () => {
    const logged: string[] = [];
    const log = (msg: string, err?: unknown) => logged.push(`${msg}: ${(err as Error).message}`);
    assert.equal(unionAuthenticator([throwing, answers(bob)], log).authenticate(req), bob);
    assert.equal(
      await unionAuthenticator([rejecting, throwing, later(bob)], log).authenticate(req),
      bob,
    );
    assert.equal(await unionAuthenticator([rejecting], log).authenticate(req), undefined);
    assert.deepEqual(logged, [
      "authentication failed: bad certificate",
      "authentication failed: expired",
      "authentication failed: bad certificate",
      "authentication failed: expired",
    ]);
  });
});
