/**
 * `@countersign/sandbox/testing`: what the tests and benchmarks outside this package (the
 * connector's, and the root's `test/` and `bench/`) use of the sandbox, which is their provider.
 * They import it from here, never by a path into this package, so that its parts can move
 * without breaking them.
 */

// A sandbox started for a test file, the provider's error shape, and a person with a token.
export { providerError, sandboxForSuite, type ApiResponse } from './sandbox.js'
export { newUser } from '../tasks/client.js'

// The provider's request log, as the control API gives it, in the sandbox's own names.
export { readRequestLog, requestsSince, type LoggedRequest } from './request-log.js'

// The person's side of its consent page and account.
export { authorizeUrl, consentForm, pkcePair, postForm, validParams } from '../auth/person.js'
export { sandboxAccount } from '../account/account.js'

// The sandbox's notion of today's date: search data is by Pacific days.
export { historyStart, isoDay, pacificNow } from '../../src/search/analytics/calendar.js'

// What the sandbox declares, which the docs and the bounds on bodies are held to.
export { SANDBOX_VARIABLES } from '../../src/cli/env.js'
export { MAX_BODY_BYTES } from '../../src/http/body.js'
export { MAX_FORM_BYTES } from '../../src/http/form.js'

// For the benchmarks: rows written counted, a long task list seeded, and seeded randomness.
export { RowCounter } from '../../src/db/row-counter.js'
export { seedTasks } from '../../src/tasks/seed.js'
export { Mulberry32 } from '../../src/synthetic/random.js'
