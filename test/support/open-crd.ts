/**
 * A CustomResourceDefinition whose one version (`v1`, served and stored) keeps
 * any field: for tests that need some custom kind and do not test its schema.
 */
export function openCrd(group: string, kind: string, plural: string) {
  const singular = kind.toLowerCase();
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      names: { plural, singular, kind, listKind: `${kind}List` },
      scope: "Namespaced",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
          },
        },
      ],
    },
  };
}
