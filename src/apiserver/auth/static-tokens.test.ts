/** Static bearer tokens: the exact token names its user; anything else names no one. */
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { describe, it } from "node:test";
import { StaticTokenAuthenticator } from "./static-tokens.js";

const withAuthorization = (authorization?: string) =>
  ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

describe("StaticTokenAuthenticator", () => {
  const tokens = new StaticTokenAuthenticator(
    new Map([
      ["token-aaaa", { username: "a", groups: ["system:masters"] }],
      ["token-bbbb", { username: "b", groups: ["dev", "system:authenticated"] }],
      ["tökén-ç", { username: "c", groups: [] }],
    ]),
  );
  const user = (authorization?: string) => tokens.authenticate(withAuthorization(authorization));

  it("names the user of each token, with system:authenticated once", () => {
    assert.deepEqual(user("Bearer token-aaaa"), {
      username: "a",
      groups: ["system:masters", "system:authenticated"],
    });
    assert.deepEqual(user("Bearer token-bbbb "), {
      username: "b",
      groups: ["dev", "system:authenticated"],
    });
    assert.equal(user("Bearer tökén-ç")?.username, "c");
    // Again, after other tokens of the same length were compared.
    assert.equal(user("Bearer token-aaaa")?.username, "a");
  });

  it("names no one for other tokens, of the same length or not, or without a bearer token", () => {
    for (const authorization of [
      "Bearer token-aaab",
      "Bearer token-aaa",
      "Bearer token-aaaaa",
      "Bearer tökén-c",
      "Bearer tokén-çx",
      "Bearer ",
      "Basic dG9rZW4tYWFhYQ==",
      "bearer token-aaaa",
      undefined,
    ])
      assert.equal(user(authorization), undefined, String(authorization));
  });
});
