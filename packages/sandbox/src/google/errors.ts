import type { ProviderError } from '../http/errors.js'

/**
 * Google words errors two ways (docs/sandbox.md, "Google dialect"): the Apiary-era APIs (Tasks,
 * webmasters v3) with an `errors[]` list of reasons, the One Platform ones (URL Inspection,
 * Analytics Data, and here the OAuth userinfo) with the canonical status only.
 */
const hasErrorList = (path: string) => path.startsWith('/tasks/') || path.startsWith('/webmasters/')

/** A provider error in Google's JSON shape for the surface of `path`. */
export function googleErrorResponse(error: ProviderError, path: string): Response {
  const { error: body } = error.body()
  if (!hasErrorList(path)) {
    const { errors: _left, ...onePlatform } = body
    return error.response({ error: onePlatform })
  }
  // Apiary names the header a rejected credential came in.
  const errors =
    error.code === 401
      ? body.errors.map((e) => ({ ...e, location: 'Authorization', locationType: 'header' }))
      : body.errors
  return error.response({ error: { ...body, errors } })
}
