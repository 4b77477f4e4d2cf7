/**
 * `@countersign/sandbox/testing`: what the connector's tests use of the sandbox, which is their
 * provider: a sandbox started for a test file, the provider's error shape, the person's side of
 * its consent page, and the sandbox's notion of today's date (search data is by Pacific days).
 */
export { providerError, sandboxForSuite, type ApiResponse } from './sandbox.js'
export { consentForm, postForm } from '../auth/person.js'
export { historyStart, isoDay, pacificNow } from '../../src/search/analytics/calendar.js'
