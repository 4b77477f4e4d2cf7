import type { z } from 'zod'
import { SERVICES } from '../../services/catalog.js'
import { namedList } from '../grant-names.js'
import { invalidArguments } from '../results.js'
import { toolError, type Step, type ToolCall } from './context.js'

/**
 * The arguments, read by the tool's input schema before anything else: a call the schema refuses
 * is answered with what to change, and nothing is counted or sent.
 */
export const readInput: Step = {
  name: 'input',
  async run(call, next) {
    const { definition, args } = call
    const parsed = definition.input.safeParse(args ?? {})
    if (!parsed.success) {
      const unnamed = await grantsOwn(call, parsed.error)
      return toolError(invalidArguments(definition.name, parsed.error, unnamed))
    }
    call.var.input = parsed.data as Record<string, unknown>
    return next()
  },
}

/**
 * For a call of a service whose tools alone name its resources (analytics: no tool lists the
 * properties) that names none, or names one wrongly (by name, say): the grant's, closest to
 * what was given first, and where the person adds one. Nothing else is sent.
 */
async function grantsOwn(call: ToolCall, error: z.ZodError): Promise<string | undefined> {
  const { service } = call.definition
  const grant = call.caller?.grant
  const { fields, listedBy } = SERVICES[service].resource
  if (!grant || listedBy !== undefined) return undefined
  const field = fields.find((name) => error.issues.some((issue) => issue.path[0] === name))
  if (field === undefined) return undefined
  const named = await call.parts.names.of(service, grant)
  if (named === undefined) return undefined
  const { args } = call
  const given =
    typeof args === 'object' &&
    args !== null &&
    typeof (args as Record<string, unknown>)[field] === 'string'
      ? ((args as Record<string, unknown>)[field] as string)
      : undefined
  return `${namedList(service, named, given)} The person can add one at ${call.parts.connectionsUrl}.`
}
