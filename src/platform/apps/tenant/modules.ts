/** The modules a Tenant can enable. */
/** Module flags of a Tenant and the app kind each installs. */
export const TENANT_MODULES: Record<string, string> = {
  etcd: "Etcd",
  monitoring: "Monitoring",
  ingress: "Ingress",
  seaweedfs: "SeaweedFS",
};
