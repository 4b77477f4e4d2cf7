import { RATE_LIMIT_NAMES, SHARED_QUOTA_NAMES } from '../config/config.js'
import { APPROVAL_DECISION_MEANINGS } from '../approval/gate.js'
import {
  GRANT_REVOCATION_MEANINGS,
  GRANT_TYPE_MEANINGS,
  TOKEN_ERRORS,
} from '../auth/token-events.js'
import { APPROVAL_CHANNEL_MEANINGS, TOOL_OUTCOME_MEANINGS } from '../mcp/events.js'
import { quotaLabel } from '../quotas/shared-quotas.js'
import { STORE_AWAY_SURFACE_MEANINGS } from '../store/away-report.js'
import {
  CIRCUIT_STATES,
  NO_ANSWER_MEANINGS,
  REFRESH_OUTCOME_MEANINGS,
  REFRESH_REASON_MEANINGS,
  UPSTREAM_FAILURES,
  UPSTREAM_STATUS_CLASSES,
  UPSTREAM_STATUS_CODES,
} from '../upstream/index.js'

/**
 * Every value a metric's label can take, in small fixed sets (docs/operations.md, "Metrics": never
 * a token, a person's data or a payload in a label), each declared by the part that tells of it;
 * besides these, labels hold only the service names and the tool names of the definitions served
 * (told at startup, never read from a request). An id, a URL or a text from a request never
 * becomes a label: what is not in its set is counted as `other`.
 */

const valuesOf = <Value extends string>(meanings: Readonly<Record<Value, unknown>>) =>
  Object.keys(meanings) as Value[]

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
