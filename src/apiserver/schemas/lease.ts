/** coordination.k8s.io/v1 Lease: leader election and node heartbeats. */
import type { Schema } from "../../api/index.js";
import { int32, microTime, object, str } from "./builders.js";
import { kindSchema } from "./kind.js";

export const leaseSchema: Schema = kindSchema(
  { group: "coordination.k8s.io", version: "v1", kind: "Lease" },
  "Lease defines a lease concept.",
  {
    spec: object(
      "Specification of the Lease. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
      {
        acquireTime: microTime("acquireTime is a time when the current lease was acquired."),
        holderIdentity: str(
          "holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.",
        ),
        leaseDurationSeconds: int32(
          "leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.",
        ),
        leaseTransitions: int32(
          "leaseTransitions is the number of transitions of a lease between holders.",
        ),
        preferredHolder: str(
          "PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up. This field can only be set if Strategy is also set.",
        ),
        renewTime: microTime(
          "renewTime is a time when the current holder of a lease has last updated the lease.",
        ),
        strategy: str(
          "Strategy indicates the strategy for picking the leader for coordinated leader election. If the field is not specified, there is no active coordination for this lease. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.",
        ),
      },
    ),
  },
);
