/**
 * kube-apiserver's checks on a Pod's DNS (validatePodDNSConfig and
 * validateHostAliases): with dnsPolicy None a dnsConfig with a nameserver;
 * at most 3 nameservers, each an IP address; at most 32 search domains of at
 * most 2048 characters in all, each a DNS subdomain (a trailing dot is
 * fine); every option named; each hostAlias an IP address with DNS
 * subdomain hostnames.
 */
import { isIP } from "node:net";
import type { PodSpec } from "../../api/index.js";
import {
  dns1123Subdomain,
  type FieldError,
  invalidValue,
  MAX_DNS_NAMESERVERS,
  MAX_DNS_SEARCH_LIST_CHARS,
  MAX_DNS_SEARCH_PATHS,
  requiredValue,
} from "../../api/index.js";

const IP_MESSAGE = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

export function dnsErrors(spec: PodSpec): FieldError[] {
  const errors: FieldError[] = [];
  const at = "spec.dnsConfig";
  const config = spec.dnsConfig;
  if (spec.dnsPolicy === "None") {
    if (!config) return [requiredValue(at, "must provide `dnsConfig` when `dnsPolicy` is None")];
    if (!config.nameservers?.length)
      return [
        requiredValue(
          `${at}.nameservers`,
          "must provide at least one DNS nameserver when `dnsPolicy` is None",
        ),
      ];
  }
  if (config) {
    const servers = config.nameservers ?? [];
    if (servers.length > MAX_DNS_NAMESERVERS)
      errors.push(
        invalidValue(
          `${at}.nameservers`,
          servers,
          `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`,
        ),
      );
    for (const [i, ns] of servers.entries())
      if (isIP(ns) === 0) errors.push(invalidValue(`${at}.nameservers[${i}]`, ns, IP_MESSAGE));
    const searches = config.searches ?? [];
    if (searches.length > MAX_DNS_SEARCH_PATHS)
      errors.push(
        invalidValue(
          `${at}.searches`,
          searches,
          `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`,
        ),
      );
    if (searches.join(" ").length > MAX_DNS_SEARCH_LIST_CHARS)
      errors.push(
        invalidValue(
          `${at}.searches`,
          searches,
          `must not have more than ${MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list`,
        ),
      );
    for (const [i, search] of searches.entries()) {
      const name = search.replace(/\.$/, "");
      for (const why of dns1123Subdomain(name))
        errors.push(invalidValue(`${at}.searches[${i}]`, name, why));
    }
    for (const [i, op] of (config.options ?? []).entries())
      if (!op.name)
        errors.push(requiredValue(`${at}.options[${i}]`, "Option.Name must not be empty"));
  }
  for (const [i, alias] of (spec.hostAliases ?? []).entries()) {
    if (isIP(alias.ip ?? "") === 0)
      errors.push(invalidValue(`spec.hostAliases[${i}].ip`, alias.ip ?? "", IP_MESSAGE));
    for (const [j, host] of (alias.hostnames ?? []).entries())
      for (const why of dns1123Subdomain(host))
        errors.push(invalidValue(`spec.hostAliases[${i}].hostnames[${j}]`, host, why));
  }
  return errors;
}
