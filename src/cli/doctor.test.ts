/** `hearth doctor`'s flags, and its finalizer table checked against the constants their owners use. */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import {
  JOB_TRACKING_FINALIZER,
  PV_PROTECTION_FINALIZER,
  PVC_PROTECTION_FINALIZER,
} from "../api/index.js";
import {
  CRD_CLEANUP_FINALIZER,
  FOREGROUND_FINALIZER,
  ORPHAN_FINALIZER,
} from "../apiserver/index.js";
import { KUBERNETES_FINALIZER, VOLUME_DIRECTORY_FINALIZER } from "../controllers/index.js";
import { FINALIZER_OWNERS } from "../platform/index.js";
import { doctorFlags } from "./doctor.js";

describe("hearth doctor flags", () => {
  it("defaults: $KUBECONFIG, else ./.hearth/admin.kubeconfig; 60s; text", () => {
    assert.deepEqual(doctorFlags([], {}), {
      kubeconfig: resolve(".hearth/admin.kubeconfig"),
      thresholdMs: 60_000,
      json: false,
    });
    assert.equal(doctorFlags([], { KUBECONFIG: "/k/c" }).kubeconfig, "/k/c");
    assert.equal(
      doctorFlags(["--data-dir", "/d"], { KUBECONFIG: "/k/c" }).kubeconfig,
      join("/d", "admin.kubeconfig"),
    );
  });

  it("takes kubectl's -o json spellings, a threshold and a namespace", () => {
    for (const o of [["-o", "json"], ["-ojson"], ["-o=json"], ["--output", "json"]])
      assert.equal(doctorFlags(o, {}).json, true, o.join(" "));
    const f = doctorFlags(["--threshold", "1s", "--namespace", "t", "--kubeconfig", "/x"], {});
    assert.deepEqual(f, { kubeconfig: "/x", thresholdMs: 1000, namespace: "t", json: false });
  });

  it("refuses what it does not know, saying why", () => {
    assert.throws(() => doctorFlags(["-o", "yaml"], {}), /-o must be json/);
    assert.throws(
      () => doctorFlags(["--threshold", "0s"], {}),
      /--threshold must be a positive duration/,
    );
    assert.throws(() => doctorFlags(["--frob", "1"], {}), /unknown flag --frob/);
    assert.throws(() => doctorFlags(["extra"], {}), /unexpected argument "extra"/);
    assert.throws(() => doctorFlags(["--kubeconfig", "a", "--data-dir", "b"], {}), /not both/);
  });
});

describe("hearth doctor's finalizer table", () => {
  it("names every finalizer Hearth's controllers own, as their owners spell it", () => {
    const owned = [
      KUBERNETES_FINALIZER,
      FOREGROUND_FINALIZER,
      ORPHAN_FINALIZER,
      CRD_CLEANUP_FINALIZER,
      PVC_PROTECTION_FINALIZER,
      PV_PROTECTION_FINALIZER,
      VOLUME_DIRECTORY_FINALIZER,
      JOB_TRACKING_FINALIZER,
      "apps.cozystack.io/uninstall",
      "etcd.hearth.io/member-cleanup",
      "kamaji.clastix.io/TenantControlPlane",
    ];
    for (const f of owned) assert.equal(FINALIZER_OWNERS.get(f)?.implemented, true, f);
    const kamaji = [...FINALIZER_OWNERS].filter(([, o]) => !o.implemented).map(([f]) => f);
    assert.deepEqual(kamaji.sort(), [
      "finalizer.kamaji.clastix.io",
      "finalizer.kamaji.clastix.io/datastore-secret",
      "finalizer.kamaji.clastix.io/soot",
    ]);
  });
});
