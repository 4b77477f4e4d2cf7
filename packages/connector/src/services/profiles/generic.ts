import { SERVICE_READS, SERVICE_TOOLS } from '../tools.js'
import type { Operation, ProviderProfile } from './profile.js'

/**
 * The generic provider (docs/design.md, "The generic provider"), which the sandbox serves: every
 * operation is the method and path of the service definitions themselves, which read like the tool
 * table. It honours If-Match, and revoking a token ends only that token's grant.
 */

const operations: Record<string, Operation> = {}
for (const definition of [...Object.values(SERVICE_TOOLS).flat(), ...SERVICE_READS])
  operations[definition.name] = { method: definition.method, path: definition.path }

export const GENERIC_PROFILE: ProviderProfile = {
  name: 'generic',
  operations,
  enforcesIfMatch: true,
  revocation: 'grant',
  // Unset, the upstream is the built-in sandbox (src/connector/env.ts).
  defaults: {},
}
