/**
 * The table kube prints for Events (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, and
 * NAME in wide output), shared by v1 and events.k8s.io/v1, which name the
 * regarded object, the message and the last-seen time differently.
 */
import type { KubeObject } from "../../api/index.js";
import type { TableColumn } from "../resources/resource-type.js";
import { age } from "../resources/table.js";

export const str = (v: unknown) => (v === undefined || v === null ? "" : String(v));

export interface EventFields {
  lastSeen(o: KubeObject): string;
  regarding(o: KubeObject): unknown;
  message(o: KubeObject): unknown;
}

export function eventColumns(fields: EventFields): TableColumn[] {
  return [
    { name: "Last Seen", type: "string", cell: (o) => age(fields.lastSeen(o)) },
    { name: "Type", type: "string", cell: (o) => str(o.type) },
    { name: "Reason", type: "string", cell: (o) => str(o.reason) },
    {
      name: "Object",
      type: "string",
      cell: (o) => {
        const ref = (fields.regarding(o) ?? {}) as { kind?: string; name?: string };
        return `${str(ref.kind).toLowerCase()}/${str(ref.name)}`;
      },
    },
    { name: "Message", type: "string", cell: (o) => str(fields.message(o)) },
    {
      name: "Name",
      type: "string",
      format: "name",
      priority: 1,
      cell: (o) => str(o.metadata.name),
    },
  ];
}
