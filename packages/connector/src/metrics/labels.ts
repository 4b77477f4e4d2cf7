import { RATE_LIMIT_NAMES, SHARED_QUOTA_NAMES } from '../config/config.js'
import { APPROVAL_DECISION_MEANINGS } from '../approval/gate.js'
import {
  GRANT_REVOCATION_MEANINGS,
  GRANT_TYPE_MEANINGS,
  TOKEN_ERRORS,
} from '../auth/token-events.js'
import { APPROVAL_CHANNEL_MEANINGS, TOOL_OUTCOME_MEANINGS } from '../mcp/events.js'
import { TOOL_CALL_STEPS } from '../mcp/steps/order.js'
import { quotaLabel } from '../quotas/shared-quotas.js'
import { SERVICE_NAMES } from '../services/catalog.js'
import { STORE_AWAY_SURFACE_MEANINGS } from '../store/away-report.js'
import {
  CIRCUIT_STATES,
  DEFAULT_API_DEADLINE_MS,
  NO_ANSWER_MEANINGS,
  REFRESH_OUTCOME_MEANINGS,
  REFRESH_REASON_MEANINGS,
  UPSTREAM_FAILURES,
  UPSTREAM_STATUS_CLASSES,
  UPSTREAM_STATUS_CODES,
} from '../upstream/index.js'

/**
 * Where each label's values come from (docs/operations.md, "Metrics": never a token, a person's
 * data or a payload in a label). Each small fixed set is declared, with what its values mean, by
 * the part that tells of them; besides these, labels hold only the service names and the tool
 * names of the definitions served (told at startup, never read from a request). A value outside
 * its set is counted as `other`.
 */
export interface LabelSource {
  /** Every value, in the order the series are made; none listed for the tools' names. */
  values: readonly string[]
  /** What the values are, in the docs' words. */
  about: string
  /** What each value means, as the part that tells of it says; unset where a name says it. */
  meanings?: Readonly<Record<string, string>>
}

const valuesOf = <Value extends string>(meanings: Readonly<Record<Value, unknown>>) =>
  Object.keys(meanings) as Value[]

/** A set of values and their meanings, as a label's source. */
const told = (about: string, meanings: Readonly<Record<string, string>>): LabelSource => ({
  values: valuesOf(meanings),
  about,
  meanings,
})

export const TOOL_OUTCOMES = valuesOf(TOOL_OUTCOME_MEANINGS)
export const APPROVAL_CHANNELS = valuesOf(APPROVAL_CHANNEL_MEANINGS)
export const APPROVAL_DECISIONS = valuesOf(APPROVAL_DECISION_MEANINGS)
export const QUOTA_LABELS: readonly string[] = SHARED_QUOTA_NAMES.map(quotaLabel)
export const GRANT_TYPES = valuesOf(GRANT_TYPE_MEANINGS)
export const GRANT_REVOCATIONS = valuesOf(GRANT_REVOCATION_MEANINGS)
export const STORE_AWAY_SURFACES = valuesOf(STORE_AWAY_SURFACE_MEANINGS)
export const UPSTREAM_REFRESH_OUTCOMES = valuesOf(REFRESH_OUTCOME_MEANINGS)
export const UPSTREAM_REFRESH_REASONS = valuesOf(REFRESH_REASON_MEANINGS)
export const UPSTREAM_NO_ANSWER = valuesOf(NO_ANSWER_MEANINGS)
export const UPSTREAM_FAILURE_KINDS = valuesOf(UPSTREAM_FAILURES)
export {
  CIRCUIT_STATES,
  RATE_LIMIT_NAMES,
  TOKEN_ERRORS,
  UPSTREAM_STATUS_CLASSES,
  UPSTREAM_STATUS_CODES,
}

const code = (value: string | number) => `\`${value}\``

export const LABELS = {
  service: { values: SERVICE_NAMES, about: 'the service' },
  tool: {
    values: [],
    about:
      'the tool, by the name its definition gives it ([tools.md](tools.md)); an approval stored under a name not served counts as `other`',
  },
  toolOutcome: told('how the call ended', TOOL_OUTCOME_MEANINGS),
  upstreamStatus: {
    values: [
      ...UPSTREAM_STATUS_CODES.map(String),
      ...UPSTREAM_STATUS_CLASSES,
      ...UPSTREAM_NO_ANSWER,
    ],
    about: `the HTTP status of the last answer: the code itself for ${UPSTREAM_STATUS_CODES.join(', ')}, else its class (${UPSTREAM_STATUS_CLASSES.slice(0, -1).map(code).join(', ')}, and \`other\` outside 100-599). A call whose first answer was a 401, followed by a renewal and a 200, counts as a 200. With no answer, why (a call's deadline is ${DEFAULT_API_DEADLINE_MS / 1000} s)`,
    meanings: NO_ANSWER_MEANINGS,
  },
  failureKind: {
    values: UPSTREAM_FAILURE_KINDS,
    about:
      'what the failed call ended in; the tool call is a `tool_error` where the model can act on it, else an `upstream_error`',
    meanings: Object.fromEntries(
      UPSTREAM_FAILURE_KINDS.map((kind) => {
        const { means, modelCanAct } = UPSTREAM_FAILURES[kind]
        return [kind, modelCanAct ? `${means}; the model can act on it` : means]
      }),
    ),
  },
  circuitState: { values: CIRCUIT_STATES, about: "the breaker's states, as cockatiel names them" },
  refreshReason: told('why the token was renewed', REFRESH_REASON_MEANINGS),
  refreshOutcome: told('how the renewal ended', REFRESH_OUTCOME_MEANINGS),
  approvalChannel: told('how the person was asked', APPROVAL_CHANNEL_MEANINGS),
  approvalDecision: told('what became of the approval', APPROVAL_DECISION_MEANINGS),
  grantType: told("the token request's grant type", GRANT_TYPE_MEANINGS),
  tokenError: {
    values: TOKEN_ERRORS,
    about: 'the OAuth error code (RFC 6749 §5.2, RFC 8707), as oidc-provider names it',
  },
  grantRevocation: told('what revoked the grant', GRANT_REVOCATION_MEANINGS),
  rateLimit: {
    values: RATE_LIMIT_NAMES,
    about: "the connector's own limit ([Rate limits](#rate-limits))",
  },
  quota: {
    values: QUOTA_LABELS,
    about:
      "the provider project's daily quota ([Fair shares](#fair-shares-of-the-providers-quotas))",
  },
  storeSurface: told('where the request came', STORE_AWAY_SURFACE_MEANINGS),
  step: {
    values: TOOL_CALL_STEPS.map((step) => step.name),
    about:
      'the step of the tool call ([A tool call, step by step](architecture.md#a-tool-call-step-by-step))',
  },
} as const satisfies Readonly<Record<string, LabelSource>>
