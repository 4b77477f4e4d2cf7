/**
 * `@countersign/sandbox/testing`: what the tests outside this package (the connector's, and the
 * root's `test/`) use of the sandbox, which is their provider: a sandbox started for a test
 * file, the provider's error shape, its request log, the person's side of its consent page and
 * account, a person with a token, and the sandbox's notion of today's date (search data is by
 * Pacific days).
 */
export { providerError, sandboxForSuite, type ApiResponse } from './sandbox.js'
export { readRequestLog, type LoggedRequest } from './request-log.js'
export { authorizeUrl, consentForm, pkcePair, postForm, validParams } from '../auth/person.js'
export { sandboxAccount } from '../account/account.js'
export { newUser } from '../tasks/client.js'
export { historyStart, isoDay, pacificNow } from '../../src/search/analytics/calendar.js'
