import { z } from 'zod'

/**
 * The quotas of Google's that the sandbox enforces, each with Google's default beside it
 * (docs/sandbox.md, "Quotas"). `POST /_sandbox/quotas` sets them, low enough for a test to run
 * out; `POST /_sandbox/reset` brings the defaults back. More quotas join this one declaration.
 */
export const GOOGLE_QUOTAS = {
  /** Tokens a GA4 property may spend on reports in a day (a standard property; GA360: 2M). */
  analyticsTokensPerDay: 200_000,
  /** Tokens a GA4 property may spend on reports in an hour (a standard property; GA360: 400K). */
  analyticsTokensPerHour: 40_000,
} as const

export type QuotaName = keyof typeof GOOGLE_QUOTAS
export type Limits = Record<QuotaName, number>

const NAMES = Object.keys(GOOGLE_QUOTAS) as QuotaName[]
const WHOLE = 'give a whole number, 0 or more'
const limit = z.number(WHOLE).int(WHOLE).min(0, WHOLE)

/** The body of `POST /_sandbox/quotas`: any of the limits; a name it does not know is refused. */
export const quotaChange = z.strictObject(
  Object.fromEntries(NAMES.map((name) => [name, limit.optional()])) as {
    [name in QuotaName]: z.ZodOptional<typeof limit>
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown ${issue.keys.map((key) => `"${key}"`).join(', ')}: the quotas are ${NAMES.join(', ')}`
        : undefined,
  },
)

/** The limits in force in one running sandbox. */
export class QuotaLimits {
  #limits: Limits = { ...GOOGLE_QUOTAS }

  get current(): Readonly<Limits> {
    return this.#limits
  }

  /** Sets the limits `change` gives, keeps the others, and says what is now in force. */
  set(change: Partial<Limits>): Limits {
    const given = Object.entries(change).filter(([, value]) => value !== undefined)
    this.#limits = { ...this.#limits, ...Object.fromEntries(given) }
    return { ...this.#limits }
  }

  reset(): void {
    this.#limits = { ...GOOGLE_QUOTAS }
  }
}
