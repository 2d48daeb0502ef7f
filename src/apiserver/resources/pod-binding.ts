/**
 * POST `/api/v1/namespaces/<ns>/pods/<name>/binding`: a v1 Binding
 * `{target: {kind: Node, name}}` assigns the pod to a node, as the scheduler does.
 * The target must be a Node (or kind empty) with a valid node name (422). It
 * sets `spec.nodeName` only while unset (409 otherwise, and for a pod being
 * deleted), copies the Binding's annotations, and sets the pod's `PodScheduled`
 * condition to True. Answers 201 with a Success Status, as kube-apiserver does.
 */

import {
  BadRequestError,
  ConflictError,
  dns1123Subdomain,
  type FieldError,
  InvalidError,
  invalidValue,
  isObject,
  type KubeObject,
  MethodNotAllowedError,
  requiredValue,
  rfc3339,
  STALE_OBJECT_MESSAGE,
} from "../../api/index.js";
import { admit, type RequestContext } from "../handlers/context.js";
import { decodeBody, readBodyBytes } from "../http/body.js";
import { sendCreatedStatus } from "../http/respond.js";
import { bindingSchema } from "../schemas/pod-binding.js";
import { checkObject } from "../validation/check-object.js";

interface Binding extends KubeObject {
  target?: { kind?: string; name?: string; apiVersion?: string };
}

interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

const MAX_ATTEMPTS = 5;

function checkBinding(ctx: RequestContext, body: unknown): Binding {
  if (!isObject(body) || body.kind !== "Binding" || body.apiVersion !== "v1")
    throw new BadRequestError("expected v1 Binding in the request body");
  // Typed as kube's decoder types it: no annotation a number, no target a string.
  const [wrong] = checkObject(body, bindingSchema, { strict: false }).errors;
  if (wrong)
    throw new BadRequestError(
      `Binding in version "v1" cannot be handled as a Binding: ${wrong.field}: ${wrong.detail}`,
    );
  const binding = body as Binding;
  binding.metadata = isObject(binding.metadata) ? binding.metadata : {};
  const name = binding.metadata.name ?? ctx.info.name;
  if (name !== ctx.info.name)
    throw new BadRequestError("name in URL does not match name in Binding object");
  const errors: FieldError[] = [];
  const kind = binding.target?.kind ?? "";
  if (kind !== "" && kind !== "Node")
    errors.push({
      reason: "FieldValueNotSupported",
      field: "target.kind",
      detail: `Unsupported value: ${JSON.stringify(kind)}: supported values: "Node", "<empty>"`,
    });
  const node = binding.target?.name;
  if (typeof node !== "string" || node === "") errors.push(requiredValue("target.name"));
  // kube stores whatever name it is given; a name no Node can have would leave
  // the pod with a nodeName its own updates then refuse, so it never finishes
  // deleting. Hearth refuses it here instead.
  else
    for (const why of dns1123Subdomain(node)) errors.push(invalidValue("target.name", node, why));
  if (errors.length > 0) throw new InvalidError({ group: "", kind: "Binding", name }, errors);
  return binding;
}

/** The pod with the node set and PodScheduled=True; throws Conflict when it cannot be bound. */
function bound(pod: KubeObject, binding: Binding): KubeObject {
  const ref = { group: "", resource: "pods/binding", name: pod.metadata.name };
  const spec = (pod.spec ?? {}) as { nodeName?: string };
  if (pod.metadata.deletionTimestamp)
    throw new ConflictError(
      ref,
      `pod ${pod.metadata.name} is being deleted, cannot be assigned to a host`,
    );
  if (spec.nodeName)
    throw new ConflictError(
      ref,
      `pod ${pod.metadata.name} is already assigned to node ${JSON.stringify(spec.nodeName)}`,
    );
  const uid = binding.metadata.uid;
  if (uid && uid !== pod.metadata.uid)
    throw new ConflictError(
      ref,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata.uid}`,
    );
  const status = (pod.status ?? {}) as { conditions?: PodCondition[] };
  const conditions = (status.conditions ?? []).filter((c) => c.type !== "PodScheduled");
  const old = (status.conditions ?? []).find((c) => c.type === "PodScheduled");
  conditions.push({
    type: "PodScheduled",
    status: "True",
    lastProbeTime: null,
    lastTransitionTime:
      old?.status === "True" && old.lastTransitionTime ? old.lastTransitionTime : rfc3339(),
  });
  const annotations = { ...pod.metadata.annotations, ...binding.metadata.annotations };
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      ...(Object.keys(annotations).length ? { annotations } : {}),
    },
    spec: { ...spec, nodeName: binding.target!.name },
    status: { ...status, conditions },
  };
}

export async function handlePodBinding(ctx: RequestContext): Promise<void> {
  if (ctx.info.verb !== "create")
    throw new MethodNotAllowedError(
      "the server does not allow this method on the requested resource",
    );
  const binding = checkBinding(
    ctx,
    decodeBody(await readBodyBytes(ctx.req), ctx.req.headers["content-type"]),
  );
  binding.metadata.namespace = ctx.info.namespace;
  await admit(ctx, "CREATE", binding, undefined);
  const { store } = ctx.server;
  for (let attempt = 1; ; attempt++) {
    const pod = await store.get(ctx.type, ctx.info.namespace, ctx.info.name!);
    const next = bound(pod, binding);
    if (ctx.query.get("dryRun") === "All") break;
    try {
      await store.update(ctx.type, next, Number(pod.metadata.resourceVersion));
      break;
    } catch (e) {
      // The pod moved meanwhile (a status write): bind the new state.
      if (!(e instanceof ConflictError && e.message.endsWith(STALE_OBJECT_MESSAGE))) throw e;
      if (attempt >= MAX_ATTEMPTS) throw e;
    }
  }
  sendCreatedStatus(ctx.res);
}
