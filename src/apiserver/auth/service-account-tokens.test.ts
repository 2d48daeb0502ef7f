/** ES256 JWTs and the ServiceAccount claims: round trip, tampering, keys, issuer, audience, expiry. */
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { describe, it } from "node:test";
import { keyId, looksLikeJwt, signJwt, verifyJwt } from "./jwt.js";
import { ServiceAccountTokens, splitServiceAccountUsername } from "./service-account-tokens.js";

const keys = () => generateKeyPairSync("ec", { namedCurve: "prime256v1" });
const subject = { namespace: "team", serviceAccount: { name: "robot", uid: "uid-1" } };
const NOW = Date.UTC(2030, 0, 1);

describe("signJwt / verifyJwt", () => {
  const { privateKey, publicKey } = keys();

  it("round-trips claims with an ES256 header naming the key", () => {
    const token = signJwt({ sub: "x", n: 1 }, privateKey, keyId(publicKey));
    assert.ok(looksLikeJwt(token));
    const header = JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString());
    assert.deepEqual(header, { alg: "ES256", kid: keyId(publicKey) });
    assert.deepEqual(verifyJwt(token, [publicKey]), { claims: { sub: "x", n: 1 } });
  });

  it("refuses a tampered payload, a foreign key and other algorithms", () => {
    const token = signJwt({ sub: "x" }, privateKey, keyId(publicKey));
    const [h, , s] = token.split(".");
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: "admin" })).toString("base64url")}.${s}`;
    assert.deepEqual(verifyJwt(forged, [publicKey]), { error: "invalid signature" });
    assert.deepEqual(verifyJwt(token, [keys().publicKey]), { error: "invalid signature" });
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${token.split(".")[1]}.`;
    assert.deepEqual(verifyJwt(none, [publicKey]), { error: "unsupported signing algorithm none" });
    assert.deepEqual(verifyJwt("a.b", [publicKey]), { error: "malformed token" });
    assert.ok(!looksLikeJwt("0123456789abcdef"));
  });
});

describe("ServiceAccountTokens", () => {
  const { privateKey } = keys();
  const tokens = new ServiceAccountTokens(privateKey);

  it("issues kube's claims and validates them back", () => {
    const { token, expiration } = tokens.issue(subject, tokens.apiAudiences, 3600, NOW);
    assert.equal(expiration.getTime(), NOW + 3600_000);
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
    assert.equal(claims.sub, "system:serviceaccount:team:robot");
    assert.equal(claims.iss, "https://kubernetes.default.svc.cluster.local");
    assert.deepEqual(claims.aud, ["https://kubernetes.default.svc.cluster.local"]);
    assert.deepEqual(claims["kubernetes.io"], {
      namespace: "team",
      serviceaccount: { name: "robot", uid: "uid-1" },
    });
    const v = tokens.validate(token, NOW + 1000);
    assert.ok(!("error" in v));
    assert.deepEqual(v.serviceAccount, subject.serviceAccount);
    assert.equal(v.jti, claims.jti);
  });

  it("expires after exp plus a minute of leeway", () => {
    const { token } = tokens.issue(subject, tokens.apiAudiences, 600, NOW);
    assert.ok(!("error" in tokens.validate(token, NOW + 600_000 + 59_000)));
    assert.deepEqual(tokens.validate(token, NOW + 600_000 + 61_000), {
      error: "token has expired",
    });
  });

  it("refuses tokens for other audiences or from other issuers", () => {
    const { token } = tokens.issue(subject, ["vault"], 600, NOW);
    assert.deepEqual(tokens.validate(token, NOW), { error: "token audiences is invalid" });
    const other = new ServiceAccountTokens(privateKey, "https://elsewhere");
    const { token: foreign } = other.issue(subject, tokens.apiAudiences, 600, NOW);
    assert.deepEqual(tokens.validate(foreign, NOW), { error: "token issuer is not accepted" });
  });

  it("carries the bound object and accepts older public keys", () => {
    const old = keys();
    const rotated = new ServiceAccountTokens(keys().privateKey, undefined, undefined, [
      old.publicKey,
    ]);
    const previous = new ServiceAccountTokens(old.privateKey);
    const { token } = previous.issue(
      { ...subject, bound: { kind: "secret", ref: { name: "s", uid: "u-s" } } },
      previous.apiAudiences,
      600,
      NOW,
    );
    const v = rotated.validate(token, NOW);
    assert.ok(!("error" in v));
    assert.deepEqual(v.bound, { kind: "secret", ref: { name: "s", uid: "u-s" } });
  });

  it("splits ServiceAccount user names", () => {
    assert.deepEqual(splitServiceAccountUsername("system:serviceaccount:ns:sa"), {
      namespace: "ns",
      name: "sa",
    });
    assert.equal(splitServiceAccountUsername("system:serviceaccount:ns"), undefined);
    assert.equal(splitServiceAccountUsername("bob"), undefined);
  });
});
