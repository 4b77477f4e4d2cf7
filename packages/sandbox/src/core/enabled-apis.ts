import { z } from 'zod'

/**
 * Which of Google's four APIs are enabled in the caller's Google Cloud project
 * (`POST /_sandbox/apis`; docs/sandbox.md, "Control API"): all of them until the control API
 * says otherwise. A call to a disabled one, with a credential, answers as Google does: 403
 * `accessNotConfigured` with the API's activation link. Without a credential Google cannot know
 * the caller's project, and answers 401 first; so does the sandbox.
 */
export const GOOGLE_APIS = [
  'tasks.googleapis.com',
  'searchconsole.googleapis.com',
  'analyticsdata.googleapis.com',
  'analyticsadmin.googleapis.com',
] as const
export type GoogleApi = (typeof GOOGLE_APIS)[number]

export const apisChange = z.strictObject({
  disabled: z.array(z.enum(GOOGLE_APIS)).max(GOOGLE_APIS.length),
})

/** The Google API a provider path of either dialect belongs to; undefined for any other path. */
export function googleApiOf(path: string): GoogleApi | undefined {
  if (path.startsWith('/tasks/v1/')) return 'tasks.googleapis.com'
  if (/^\/(search\/v1|webmasters\/v3|v1\/urlInspection)\//.test(path))
    return 'searchconsole.googleapis.com'
  if (/^\/(analytics\/v1|v1beta)\/accountSummaries(\/|$)/.test(path))
    return 'analyticsadmin.googleapis.com'
  if (/^\/(analytics\/v1|v1beta)\//.test(path)) return 'analyticsdata.googleapis.com'
  return undefined
}

export class EnabledApis {
  #disabled = new Set<GoogleApi>()

  set({ disabled }: z.infer<typeof apisChange>) {
    this.#disabled = new Set(disabled)
    return this.current
  }

  get current() {
    return {
      enabled: GOOGLE_APIS.filter((api) => !this.#disabled.has(api)),
      disabled: GOOGLE_APIS.filter((api) => this.#disabled.has(api)),
    }
  }

  isDisabled(api: GoogleApi | undefined): api is GoogleApi {
    return api !== undefined && this.#disabled.has(api)
  }

  reset() {
    this.#disabled.clear()
  }
}
