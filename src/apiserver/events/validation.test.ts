/** kube's Event validation: legacy for every Event, strict for events.k8s.io/v1 writes. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { KubeObject } from "../../api/index.js";
import { fieldErrorMessage } from "../../api/index.js";
import {
  legacyEventErrors,
  strictEventCreateErrors,
  strictEventUpdateErrors,
} from "./validation.js";

const messages = (errors: ReturnType<typeof legacyEventErrors>) => errors.map(fieldErrorMessage);

function event(fields: Record<string, unknown>, namespace = "default"): KubeObject {
  return { apiVersion: "v1", kind: "Event", metadata: { name: "e", namespace }, ...fields };
}

const modern = {
  eventTime: "2024-05-01T10:00:00.000000Z",
  reportingComponent: "example.com/ctl",
  reportingInstance: "ctl-1",
  action: "Reconcile",
  reason: "Done",
  type: "Normal",
  involvedObject: { kind: "Widget", name: "w", namespace: "default" },
};

describe("legacyEventErrors", () => {
  it("requires the involved object's namespace to match", () => {
    assert.deepEqual(
      messages(legacyEventErrors(event({ involvedObject: { namespace: "default" } }))),
      [],
    );
    assert.deepEqual(messages(legacyEventErrors(event({ involvedObject: {} }, "kube-system"))), [
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
    ]);
    assert.deepEqual(
      messages(legacyEventErrors(event({ involvedObject: { namespace: "a" } }, "b"))),
      ['involvedObject.namespace: Invalid value: "a": does not match event.namespace'],
    );
  });

  it("requires reporting fields of Events with an eventTime", () => {
    assert.deepEqual(messages(legacyEventErrors(event(modern))), []);
    assert.deepEqual(
      messages(
        legacyEventErrors(
          event({ ...modern, reportingComponent: "", action: "", reason: "r".repeat(129) }),
        ),
      ),
      [
        "reportingComponent: Required value",
        'reportingComponent: Invalid value: "": name part must be non-empty',
        // IsQualifiedName checks the pattern even of an empty name part, as kube does.
        `reportingComponent: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
        "action: Required value",
        'reason: Invalid value: "": can have at most 128 characters',
      ],
    );
  });
});

describe("strict events.k8s.io/v1 validation", () => {
  it("requires eventTime and a known type on create, and no deprecated fields", () => {
    assert.deepEqual(messages(strictEventCreateErrors(event(modern))), []);
    assert.deepEqual(
      messages(
        strictEventCreateErrors(
          event({ involvedObject: { namespace: "default" }, count: 2, type: "Odd" }),
        ),
      ),
      [
        "eventTime: Required value",
        'type: Invalid value: "": has invalid value: Odd',
        'count: Invalid value: "": needs to be unset',
      ],
    );
    assert.deepEqual(
      messages(strictEventCreateErrors(event({ ...modern, series: { count: 1 } }))),
      [
        'series.count: Invalid value: "": should be at least 2',
        "series.lastObservedTime: Required value",
      ],
    );
  });

  it("lets an update change only the series", () => {
    const old = event(modern);
    const series = { count: 2, lastObservedTime: "2024-05-01T10:01:00.000000Z" };
    assert.deepEqual(messages(strictEventUpdateErrors(event({ ...modern, series }), old)), []);
    assert.deepEqual(
      messages(strictEventUpdateErrors(event({ ...modern, reason: "Other" }), old)),
      ['reason: Invalid value: "Other": field is immutable'],
    );
  });
});
