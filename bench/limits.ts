/**
 * Limits lifted out of a bench's way, so that what it drives on one grant is never refused, while
 * the connector still counts every call (the limiter's and the fair share's costs stay in the
 * figures).
 */

/** Tool calls per grant a minute (RATE_LIMIT_TOOL_CALLS_PER_MINUTE): never reached. */
export const UNREACHED_PER_MINUTE = '1000000000'

/** A provider project's daily quota (QUOTA_*_PER_DAY): no day of a bench comes near it. */
export const UNREACHED_PER_DAY = String(10 ** 12)
