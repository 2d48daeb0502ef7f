/**
 * Endpoints and EndpointSlices refuse bad addresses and ports as kube-apiserver
 * does (`describeRefusals`: a 422 Invalid naming each field with its reason and
 * kube's rule, nothing written): addresses that are not IPs (or, in an FQDN
 * slice, not domains), unspecified, link-local, link-local multicast and IPv6
 * loopback; ports out of 1..65535, unknown protocols, missing or repeated
 * names; subsets and endpoints without addresses. One departure is accepted:
 * IPv4 loopback, Hearth's pod network; ports' protocol defaults to TCP.
 */
import assert from "node:assert/strict";
import { type Accepted, describeRefusals, type Obj, type Row } from "../support/refusal-table.js";

const endpoints = (subset: Obj) => ({ subsets: [{ ports: [{ port: 80 }], ...subset }] });
const ip = (address: string) => endpoints({ addresses: [{ ip: address }] });
const IP = "subsets[0].addresses[0].ip";
const ENDPOINTS: Row[] = [
  {
    why: "an ip that is not an IP",
    kind: "Endpoints",
    body: ip("nope"),
    causes: [
      [IP, "FieldValueInvalid"],
      [IP, "FieldValueInvalid"],
    ],
    message:
      /\[subsets\[0\]\.addresses\[0\]\.ip: Invalid value: "nope": must be a valid IP address, \(e\.g\. 10\.9\.8\.7 or 2001:db8::ffff\), subsets\[0\]\.addresses\[0\]\.ip: Invalid value: "nope": must be a valid IP address\]$/,
  },
  {
    why: "the unspecified address",
    kind: "Endpoints",
    body: ip("0.0.0.0"),
    causes: [[IP, "FieldValueInvalid"]],
    message: /Invalid value: "0\.0\.0\.0": may not be unspecified \(0\.0\.0\.0\)$/,
  },
  {
    why: "a link-local address among the not-ready ones",
    kind: "Endpoints",
    body: endpoints({ notReadyAddresses: [{ ip: "169.254.169.254" }] }),
    causes: [["subsets[0].notReadyAddresses[0].ip", "FieldValueInvalid"]],
    message:
      /"169\.254\.169\.254": may not be in the link-local range \(169\.254\.0\.0\/16, fe80::\/10\)$/,
  },
  {
    why: "an IPv6 link-local address",
    kind: "Endpoints",
    body: ip("fe80::1"),
    causes: [[IP, "FieldValueInvalid"]],
    message: /"fe80::1": may not be in the link-local range/,
  },
  {
    why: "a link-local multicast address",
    kind: "Endpoints",
    body: ip("224.0.0.251"),
    causes: [[IP, "FieldValueInvalid"]],
    message: /may not be in the link-local multicast range \(224\.0\.0\.0\/24, ff02::\/10\)$/,
  },
  {
    why: "the IPv6 loopback address (Hearth's pods are IPv4)",
    kind: "Endpoints",
    body: ip("::1"),
    causes: [[IP, "FieldValueInvalid"]],
    message: /"::1": may not be in the loopback range \(127\.0\.0\.0\/8, ::1\/128\)$/,
  },
  {
    why: "a port above 65535 and one of 0",
    kind: "Endpoints",
    body: {
      subsets: [
        { addresses: [{ ip: "10.0.0.1" }], ports: [{ port: 70000 }] },
        { addresses: [{ ip: "10.0.0.2" }], ports: [{ port: 0 }] },
      ],
    },
    causes: [
      ["subsets[0].ports[0].port", "FieldValueInvalid"],
      ["subsets[1].ports[0].port", "FieldValueInvalid"],
    ],
    message:
      /\[subsets\[0\]\.ports\[0\]\.port: Invalid value: 70000: must be between 1 and 65535, inclusive, subsets\[1\]\.ports\[0\]\.port: Invalid value: 0: must be between 1 and 65535, inclusive\]$/,
  },
  {
    why: "an unknown protocol and an unnamed port beside another",
    kind: "Endpoints",
    body: {
      subsets: [
        {
          addresses: [{ ip: "10.0.0.1" }],
          ports: [{ name: "a", port: 1, protocol: "ICMP" }, { port: 2 }],
        },
      ],
    },
    causes: [
      ["subsets[0].ports[0].protocol", "FieldValueNotSupported"],
      ["subsets[0].ports[1].name", "FieldValueRequired"],
    ],
    message:
      /\[subsets\[0\]\.ports\[0\]\.protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP", subsets\[0\]\.ports\[1\]\.name: Required value\]$/,
  },
  {
    why: "a subset without addresses and a hostname that is not a label",
    kind: "Endpoints",
    body: {
      subsets: [{ ports: [{ port: 80 }] }, { addresses: [{ ip: "10.0.0.1", hostname: "A_B" }] }],
    },
    causes: [
      ["subsets[0]", "FieldValueRequired"],
      ["subsets[1].addresses[0].hostname", "FieldValueInvalid"],
    ],
    message:
      /\[subsets\[0\]: Required value: must specify `addresses` or `notReadyAddresses`, subsets\[1\]\.addresses\[0\]\.hostname: Invalid value: "A_B": a lowercase RFC 1123 label/,
  },
  {
    why: "an update to a link-local address",
    kind: "Endpoints",
    body: ip("10.0.0.1"),
    update: (o) => {
      Object.assign(o, ip("169.254.0.1"));
    },
    causes: [[IP, "FieldValueInvalid"]],
    message: /"169\.254\.0\.1": may not be in the link-local range/,
  },
];

const slice = (addressType: string, ...addresses: string[]) => ({
  addressType,
  endpoints: [{ addresses }],
});
const SLICES: Row[] = [
  {
    why: "an IPv6 address in an IPv4 slice",
    kind: "EndpointSlice",
    body: slice("IPv4", "fe80::1"),
    causes: [["endpoints[0].addresses[0]", "FieldValueInvalid"]],
    message:
      /endpoints\[0\]\.addresses\[0\]: Invalid value: "fe80::1": must be a valid IPv4 address$/,
  },
  {
    why: "a link-local IPv4 address",
    kind: "EndpointSlice",
    body: slice("IPv4", "10.0.0.1", "169.254.3.4"),
    causes: [["endpoints[0].addresses[1]", "FieldValueInvalid"]],
    message:
      /"169\.254\.3\.4": may not be in the link-local range \(169\.254\.0\.0\/16, fe80::\/10\)$/,
  },
  {
    why: "an IPv4 address in an IPv6 slice",
    kind: "EndpointSlice",
    body: slice("IPv6", "10.0.0.1"),
    causes: [["endpoints[0].addresses[0]", "FieldValueInvalid"]],
    message: /"10\.0\.0\.1": must be a valid IPv6 address$/,
  },
  {
    why: "FQDN addresses of one segment and with an underscore",
    kind: "EndpointSlice",
    body: slice("FQDN", "localhost", "a_b.example.com"),
    causes: [
      ["endpoints[0].addresses[0]", "FieldValueInvalid"],
      ["endpoints[0].addresses[1]", "FieldValueInvalid"],
    ],
    message:
      /\[endpoints\[0\]\.addresses\[0\]: Invalid value: "localhost": should be a domain with at least two segments separated by dots, endpoints\[0\]\.addresses\[1\]: Invalid value: "a_b\.example\.com": a lowercase RFC 1123 subdomain/,
  },
  {
    why: "an endpoint without addresses and a nodeName that is not a subdomain",
    kind: "EndpointSlice",
    body: { addressType: "IPv4", endpoints: [{ addresses: [], nodeName: "Node_1" }] },
    causes: [
      ["endpoints[0].addresses", "FieldValueRequired"],
      ["endpoints[0].nodeName", "FieldValueInvalid"],
    ],
    message:
      /\[endpoints\[0\]\.addresses: Required value: must contain at least 1 address, endpoints\[0\]\.nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain/,
  },
  {
    why: "a repeated port name and an unknown protocol",
    kind: "EndpointSlice",
    body: {
      addressType: "IPv4",
      endpoints: [],
      ports: [
        { name: "a", port: 1 },
        { name: "a", port: 2, protocol: "ICMP" },
      ],
    },
    causes: [
      ["ports[1].name", "FieldValueDuplicate"],
      ["ports[1].protocol", "FieldValueNotSupported"],
    ],
    message:
      /\[ports\[1\]\.name: Duplicate value: "a", ports\[1\]\.protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"\]$/,
  },
];

const tcp = (stored: Obj, ports: (s: Obj) => unknown) => {
  assert.deepEqual(ports(stored), [{ port: 8080, protocol: "TCP" }]);
};

const ACCEPTED: Accepted[] = [
  {
    why: "Endpoints on Hearth's loopback pod addresses, the protocol defaulted to TCP",
    kind: "Endpoints",
    body: {
      subsets: [{ addresses: [{ ip: "127.1.0.7", nodeName: "node-1" }], ports: [{ port: 8080 }] }],
    },
    check: (s) => tcp(s, (o) => (o.subsets as Obj[])[0]!.ports),
  },
  {
    why: "an EndpointSlice of Hearth's loopback pod addresses, the protocol defaulted to TCP",
    kind: "EndpointSlice",
    body: { ...slice("IPv4", "127.1.0.7"), ports: [{ port: 8080 }] },
    check: (s) => tcp(s, (o) => o.ports),
  },
];

describeRefusals(
  "Endpoints and EndpointSlices refuse bad addresses and ports with kube's 422",
  [
    ["Endpoints", ENDPOINTS],
    ["EndpointSlice", SLICES],
  ],
  ACCEPTED,
);
