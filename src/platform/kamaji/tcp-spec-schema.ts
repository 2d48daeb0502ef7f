/**
 * The schema of a TenantControlPlane's spec, after Kamaji's CRD
 * (`charts/kamaji/crds/kamaji.clastix.io_tenantcontrolplanes.yaml`): the same
 * field names, required fields, enums, defaults and CEL rules where Hearth
 * acts on a field; the large sub-objects Kamaji copies from core types
 * (containers, volumes, affinity, security contexts, probes, konnectivity)
 * are objects that keep whatever they hold, so every manifest Kamaji accepts
 * is accepted, and a controller reports what Hearth ignores.
 *
 * Departures: `controlPlane.deployment` and `networkProfile` default to `{}`
 * (Kamaji's Go types are non-pointer structs, so the first write of its
 * controller fills them in; here the apiserver does, and `replicas: 2`, port
 * 6443 and the CIDRs are there from the create). Kamaji's `isIP`/`isCIDR`
 * rules are left to the controller (Hearth's CEL has no network library yet).
 * `dataStoreSchema`/`dataStoreUsername` get no default here: as Kamaji, the
 * controller records the TCP's UID in `status.storage.setup` when unset.
 */
type Schema = Record<string, unknown>;

const str: Schema = { type: "string" };
const bool: Schema = { type: "boolean" };
const int32: Schema = { type: "integer", format: "int32" };
const open: Schema = { type: "object", "x-kubernetes-preserve-unknown-fields": true };
const openList: Schema = { type: "array", items: open };
const strings: Schema = { type: "array", items: str };
const stringMap: Schema = { type: "object", additionalProperties: str };
const metadata: Schema = {
  type: "object",
  properties: { labels: stringMap, annotations: stringMap },
};
const obj = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: "object",
  properties,
  ...extra,
});
/** One entry per control-plane component (apiServer, controllerManager, scheduler, kine). */
const perComponent = (
  value: Schema,
  components = ["apiServer", "controllerManager", "scheduler", "kine"],
) => obj(Object.fromEntries(components.map((c) => [c, value])));
const immutable = (what: string) => ({
  "x-kubernetes-validations": [
    { rule: "self == oldSelf", message: `changing the ${what} is not supported` },
  ],
});
const intOrString: Schema = { "x-kubernetes-int-or-string": true };

const deployment = obj(
  {
    replicas: { ...int32, default: 2 },
    strategy: obj(
      {
        type: str,
        rollingUpdate: obj({ maxSurge: intOrString, maxUnavailable: intOrString }),
      },
      {
        default: { type: "RollingUpdate", rollingUpdate: { maxSurge: "100%", maxUnavailable: 0 } },
      },
    ),
    registrySettings: open,
    resources: perComponent(open),
    extraArgs: perComponent(strings),
    additionalMetadata: metadata,
    podAdditionalMetadata: metadata,
    additionalContainers: openList,
    additionalInitContainers: openList,
    additionalVolumes: openList,
    additionalVolumeMounts: perComponent(openList, ["apiServer", "controllerManager", "scheduler"]),
    nodeSelector: stringMap,
    tolerations: openList,
    affinity: open,
    topologySpreadConstraints: openList,
    runtimeClassName: str,
    serviceAccountName: { type: "string", default: "default" },
    automountServiceAccountToken: bool,
    podSecurityContext: open,
    containerSecurityContexts: open,
    probes: open,
  },
  { default: {} },
);

const service = obj(
  {
    serviceType: { type: "string", enum: ["ClusterIP", "NodePort", "LoadBalancer"] },
    additionalMetadata: metadata,
    additionalPorts: openList,
    allocateLoadBalancerNodePorts: bool,
  },
  { required: ["serviceType"] },
);

const controlPlane = obj(
  {
    deployment,
    service,
    ingress: obj({ hostname: str, ingressClassName: str, additionalMetadata: metadata }),
    gateway: open,
  },
  {
    required: ["service"],
    "x-kubernetes-validations": [
      {
        rule: "!(has(self.ingress) && has(self.gateway))",
        message: "using both ingress and gateway is not supported",
      },
    ],
  },
);

const kubernetes = obj(
  {
    version: { type: "string", minLength: 1 },
    kubelet: obj({
      cgroupfs: { type: "string", enum: ["systemd", "cgroupfs"] },
      preferredAddressTypes: {
        type: "array",
        items: str,
        minItems: 1,
        default: ["InternalIP", "ExternalIP", "Hostname"],
      },
      configurationJSONPatches: openList,
    }),
    admissionControllers: strings,
  },
  { required: ["version"] },
);

const networkProfile = obj(
  {
    address: str,
    advertiseAddress: str,
    allowAddressAsExternalIP: bool,
    port: { ...int32, default: 6443 },
    certSANs: strings,
    serviceCidr: { type: "string", default: "10.96.0.0/16" },
    podCidr: { type: "string", default: "10.244.0.0/16" },
    serviceCidrs: { type: "array", items: str, minItems: 1, maxItems: 2 },
    podCidrs: { type: "array", items: str, minItems: 1, maxItems: 2 },
    dnsServiceIPs: { type: "array", items: str, maxItems: 8 },
    clusterDomain: {
      type: "string",
      default: "cluster.local",
      pattern: ".*\\..*",
      ...immutable("cluster domain"),
    },
    loadBalancerSourceRanges: { type: "array", items: str, maxItems: 16 },
    loadBalancerClass: { type: "string", minLength: 1 },
  },
  { default: {} },
);

const unsettable = (field: string) => ({
  rule: `!has(oldSelf.${field}) || has(self.${field})`,
  message: `unsetting the ${field} is not supported`,
});

export const TCP_SPEC_SCHEMA: Schema = obj(
  {
    dataStore: str,
    dataStoreSchema: { ...str, ...immutable("dataStoreSchema") },
    dataStoreUsername: { ...str, ...immutable("dataStoreUsername") },
    dataStoreOverrides: { type: "array", items: obj({ resource: str, dataStore: str }) },
    controlPlane,
    kubernetes,
    networkProfile,
    addons: obj({ coreDNS: open, kubeProxy: open, konnectivity: open }),
    writePermissions: obj({ blockCreation: bool, blockUpdate: bool, blockDeletion: bool }),
  },
  {
    required: ["controlPlane", "kubernetes"],
    "x-kubernetes-validations": [
      unsettable("dataStore"),
      unsettable("dataStoreSchema"),
      unsettable("dataStoreUsername"),
    ],
  },
);
