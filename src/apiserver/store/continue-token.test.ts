/**
 * Continue tokens: what `encodeContinue` writes `decodeContinue` reads back, and
 * every malformed or foreign token is refused with kube's 400 message, never read.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BadRequestError } from "../../api/index.js";
import { decodeContinue, encodeContinue } from "./continue-token.js";

const PREFIX = "/registry/core/configmaps/a/";
const token = (body: unknown) => Buffer.from(JSON.stringify(body)).toString("base64url");
const valid = { v: "meta.k8s.io/v1", rv: 7, start: `${PREFIX}x` };

describe("continue tokens", () => {
  it("round-trips the revision and the last key, unusual characters included", () => {
    for (const after of [`${PREFIX}x`, `${PREFIX}ünï/🚀`, `${PREFIX}a"b\\c`]) {
      const encoded = encodeContinue({ revision: 42, after });
      assert.match(encoded, /^[A-Za-z0-9_-]+$/, "base64url without padding");
      assert.deepEqual(decodeContinue(encoded, PREFIX), { revision: 42, after });
    }
    assert.deepEqual(
      JSON.parse(Buffer.from(encodeContinue({ revision: 3, after: "k" }), "base64url").toString()),
      {
        v: "meta.k8s.io/v1",
        rv: 3,
        start: "k",
      },
    );
  });

  it("reads a negative revision as the latest one, as kube's tokens after compaction", () => {
    assert.deepEqual(decodeContinue(token({ ...valid, rv: -1 }), PREFIX), {
      revision: 0,
      after: valid.start,
    });
  });

  const refused: [what: string, token: string, message: RegExp][] = [
    ["not base64url", "not*base64", /continue key is not valid: illegal base64 data/],
    ["not JSON", Buffer.from("{nope").toString("base64url"), /continue key is not valid: /],
    ["an array", token([1]), /cannot unmarshal array into Go value of type storage.continueToken/],
    ["a string", token("s"), /cannot unmarshal string into Go value/],
    ["a number", token(5), /cannot unmarshal number into Go value/],
    ["null", token(null), /server does not recognize this encoded version $/],
    [
      "another version",
      token({ ...valid, v: "meta.k8s.io/v2" }),
      /does not recognize this encoded version meta.k8s.io\/v2/,
    ],
    [
      "no version",
      token({ rv: 1, start: valid.start }),
      /does not recognize this encoded version $/,
    ],
    ["revision 0", token({ ...valid, rv: 0 }), /incorrect encoded start resourceVersion/],
    [
      "a fractional revision",
      token({ ...valid, rv: 1.5 }),
      /incorrect encoded start resourceVersion/,
    ],
    ["a string revision", token({ ...valid, rv: "7" }), /incorrect encoded start resourceVersion/],
    [
      "an unsafe revision",
      token({ ...valid, rv: 2 ** 60 }),
      /incorrect encoded start resourceVersion/,
    ],
    ["an empty start", token({ ...valid, start: "" }), /encoded start key empty/],
    ["a numeric start", token({ ...valid, start: 5 }), /encoded start key empty/],
    [
      "another namespace",
      token({ ...valid, start: "/registry/core/configmaps/b/x" }),
      /outside of the listed collection/,
    ],
    [
      "a sibling of the prefix",
      token({ ...valid, start: "/registry/core/configmaps/ab/x" }),
      /outside of the listed collection/,
    ],
    [
      "another kind",
      token({ ...valid, start: "/registry/core/secrets/a/x" }),
      /outside of the listed collection/,
    ],
  ];
  for (const [what, bad, message] of refused) {
    it(`refuses a token that is ${what}`, () => {
      const error = (() => {
        try {
          decodeContinue(bad, PREFIX);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      assert.ok(error instanceof BadRequestError, `${what}: ${String(error)}`);
      assert.equal(error.code, 400);
      assert.match(error.message, /^invalid continue token: /);
      assert.match(error.message, message);
    });
  }
});
