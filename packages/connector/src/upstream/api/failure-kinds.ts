/**
 * What a call to the provider's API can end in, other than a result: each kind once, with what it
 * means and whether the model can act on it. The rest read it from here: the error the client
 * throws (errors.ts maps the provider's answers onto these kinds), the tool call's outcome
 * (packages/connector/src/mcp/steps/failures.ts), the `kind` label of
 * `countersign_upstream_failures_total` and its values in docs/operations.md (generated). The
 * words a model reads for each are the MCP layer's (packages/connector/src/mcp/results.ts).
 */

interface FailureKind {
  /** What it means, in the operator's words. */
  means: string
  /**
   * The provider refused the request for what it asks (its arguments, the person's data or
   * rights): the model can act on it, by changing the arguments or reading again. Otherwise the
   * provider failed, or its limits or setup stand in the way, and only waiting or the operator
   * helps.
   */
  modelCanAct: boolean
}

export const UPSTREAM_FAILURES = {
  invalid: {
    means: 'the provider rejected the arguments as invalid (400, 413, 422)',
    modelCanAct: true,
  },
  failed_precondition: {
    means: "one of the provider's rules does not allow the request (a 400 FAILED_PRECONDITION)",
    modelCanAct: true,
  },
  not_found: { means: 'the provider has no such resource (404, 410)', modelCanAct: true },
  permission: {
    means:
      "the provider refused access (403): the connection lacks the permission, or the resource is not the person's",
    modelCanAct: true,
  },
  conflict: {
    means: 'the resource changed since it was read (409, or 412 to an If-Match)',
    modelCanAct: true,
  },
  rate_limited: {
    means: 'the provider limited the rate of requests (429, or a 403 that says so)',
    modelCanAct: false,
  },
  quota_exhausted: {
    means: 'a quota at the provider is used up for the day or the hour',
    modelCanAct: false,
  },
  api_disabled: {
    means: "the provider has not enabled the service's API for the connector's OAuth client",
    modelCanAct: false,
  },
  unavailable: {
    means: 'the provider is not available: a 5xx, a timeout, the network, or calls paused',
    modelCanAct: false,
  },
  outcome_unknown: {
    means:
      'a change was sent and its answer lost (a timeout or a broken connection after sending, a 500, 502 or 504): it may or may not have been made',
    modelCanAct: false,
  },
  malformed: { means: 'an answer the connector cannot read', modelCanAct: false },
} as const satisfies Readonly<Record<string, FailureKind>>

export type UpstreamFailureKind = keyof typeof UPSTREAM_FAILURES
