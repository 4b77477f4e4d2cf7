import { providerReader } from '../provider-reader.js'
import type { ToolCall } from './context.js'

/** The reads a step makes at the provider for the call, as the call's grant. */
export const readerOf = (call: ToolCall) =>
  providerReader(call.parts.api, call.parts.profile, call.definition.service, call.need('grant'))
