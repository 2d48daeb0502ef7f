/** core/v1 PodDNSConfig and HostAlias, as kube's OpenAPI describes them. */
import type { Schema } from "../../api/index.js";
import { object, str, stringList } from "./builders.js";

export const podDNSConfig: Schema = object(
  "PodDNSConfig defines the DNS parameters of a pod in addition to those generated from DNSPolicy.",
  {
    nameservers: stringList(
      "A list of DNS name server IP addresses. This will be appended to the base nameservers generated from DNSPolicy. Duplicated nameservers will be removed.",
    ),
    options: {
      type: "array",
      description:
        "A list of DNS resolver options. This will be merged with the base options generated from DNSPolicy. Duplicated entries will be removed. Resolution options given in Options will override those that appear in the base DNSPolicy.",
      items: object("PodDNSConfigOption defines DNS resolver options of a pod.", {
        name: str("Name is this DNS resolver option's name. Required."),
        value: str("Value is this DNS resolver option's value."),
      }),
      "x-kubernetes-list-type": "atomic",
    },
    searches: stringList(
      "A list of DNS search domains for host-name lookup. This will be appended to the base search paths generated from DNSPolicy. Duplicated search paths will be removed.",
    ),
  },
);

export const hostAlias: Schema = object(
  "HostAlias holds the mapping between IP and hostnames that will be injected as an entry in the pod's hosts file.",
  {
    hostnames: stringList("Hostnames for the above IP address."),
    ip: str("IP address of the host file entry."),
  },
  ["ip"],
);
