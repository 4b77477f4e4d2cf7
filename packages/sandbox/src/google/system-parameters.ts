/**
 * Google's system query parameters, which every Google API accepts beside its own: the
 * dialect accepts and ignores them (answers are always JSON, whole and compact).
 */
const SYSTEM_PARAMETERS = new Set([
  'alt',
  '$alt',
  'prettyPrint',
  '$prettyPrint',
  'fields',
  '$fields',
  'quotaUser',
  '$quotaUser',
  '$.xgafv',
])

/**
 * The call's own query parameters, and whether the caller asked for enums as numbers
 * (`$alt=json;enum-encoding=int`, which Google's analytics client sends with every call).
 */
export function withoutSystemParameters(query: URLSearchParams): {
  query: URLSearchParams
  numericEnums: boolean
} {
  const own = new URLSearchParams()
  let numericEnums = false
  for (const [name, value] of query) {
    if (!SYSTEM_PARAMETERS.has(name)) own.append(name, value)
    else if (name === 'alt' || name === '$alt')
      numericEnums ||= value.split(';').some((option) => option.trim() === 'enum-encoding=int')
  }
  return { query: own, numericEnums }
}
