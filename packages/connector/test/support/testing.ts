/**
 * `@countersign/connector/testing`: what the tests and benchmarks outside this package (the
 * root's `test/` and `bench/`) use of the connector's test support. They import it from here,
 * never by a path into this folder, so that the support can move without breaking them.
 */

// A connector for a test file, with its sandbox, people and clients.
export {
  AuthorizationStopped,
  connectorForSuite,
  coverageAnswer,
  csrfOf,
  firstAnswer,
  type Client,
  type ConnectorHarness,
  type Person,
} from './connector.js'
export { describeEachEngine, describeOnPostgres } from './engines.js'
export { replicasForSuite, startReplicas, type ReplicaSet } from './replicas.js'
export { dumpStore } from './store-dump.js'
export { databaseProxy, type DatabaseProxy, type Outage } from './database-proxy.js'
export { heldDate } from './clock.js'

// An assistant: its OAuth, its MCP clients, and its calls.
export { AssistantOAuth, recordingFetch } from './assistant-oauth.js'
export { AuthorizationFlow } from './authorization-flow.js'
export { HOSTS, documentPath, jwksPath, type Host } from './hosts.js'
export {
  CLIENT_ASSERTION_TYPE,
  HostSignIn,
  hostSigningKey,
  signedAssertion,
  publishedDocument,
  type HostSigningKey,
  type HostWorld,
} from './host-sign-in.js'
export { mcpClientWithToken } from './mcp-client.js'
export { approvalLink, assistantV1, assistantV2, textOf } from '../mcp/approval-clients.js'
export { taskFixtures } from '../mcp/fixtures.js'
export { serviceTools } from './service-tools.js'

// The person's side of an approval.
export { approvalFlow, approvalPages } from '../approval/flow.js'

// Servers that stand in for the world around the connector.
export { metadataDocumentsForSuite } from './metadata-documents.js'
export { redirectReceiverForSuite } from './redirect-receiver.js'
export { selfSignedCertificate } from './certificate.js'

// The programs as processes, and the bytes they are sent.
export {
  COMPILED,
  FROM_SOURCES,
  freePort,
  isAlive,
  loggedModules,
  mcpPingWithoutToken,
  moduleLog,
  PROGRAMS,
  startProcess,
  stopProcess,
  upstreamEnvironment,
} from './processes.js'
export { keptAlive, next, upload, type Upload, type UploadAnswer } from './uploads.js'

// What a model is sent, counted.
export {
  METADATA_PEOPLE,
  STANDARD_PERSON,
  PROPERTY_GRANTS,
  defaultQuestions,
  definitionsRead,
  findProperty,
  propertyGrantRead,
  rowPage,
  rowRatio,
  tokensOf,
  type Assets,
} from './model-budget.js'

// The pages' one script, and nothing else.
export { expectOnlyOwnScript } from './page-scripts.js'

// A person's devices: a push service on loopback, and the device's side of a pushed change.
export { PushService, type Delivered, type TestDevice } from './push-service.js'
export {
  actOnNotification,
  deliveredTo,
  notificationOf,
  notifyButtonOf,
  pushedApproval,
  turnOnNotifications,
} from '../push/device.js'

// What the connector declares, which the docs, the limits and the benchmarks are held to.
export { SERVICE_NAMES, SERVICES, type ServiceName } from '../../src/services/catalog.js'
export { VIEW_NAMES } from '../../src/services/views.js'
export {
  CONNECTOR_VARIABLES,
  SANDBOX_LOCATION_VARIABLES,
  UPSTREAM_VARIABLES,
} from '../../src/config/variables.js'
export { DEFAULT_RATE_LIMITS } from '../../src/config/config.js'
export { RATE_LIMIT_TABLE } from '../../src/store/rate-limits.js'
export { OAUTH_BODY_BYTES } from '../../src/auth/oauth-bodies.js'
export { TOOL_CALL_STEPS } from '../../src/mcp/steps/order.js'
export { METRICS } from '../../src/metrics/declared.js'
export { Metrics } from '../../src/metrics/metrics.js'

// What the connector keeps at rest and writes to its log, read as the connector reads them.
export { openStore } from '../../src/store/open.js'
export { loadOrCreateKeyFile } from '../../src/vault/key-file.js'
export { digest } from '../../src/auth/adapter.js'
export { UpstreamCredentials, credentialBinding } from '../../src/vault/credentials.js'
export { SealedValueError } from '../../src/vault/errors.js'
export { createLogger } from '../../src/connector/logger.js'

// The MCP layer's parts, which bench/mcp-handler.ts runs without the rest of the connector.
export { EVERY_ONE } from '../../src/auth/coverage.js'
export { requestStateCodec } from '../../src/mcp/asking.js'
export { serviceHandler } from '../../src/mcp/handler.js'
export { ServiceTools } from '../../src/mcp/tools.js'
export { ServiceViews } from '../../src/mcp/views.js'
export { SERVICE_TOOLS } from '../../src/services/tools.js'
export { GENERIC_PROFILE } from '../../src/services/profiles/generic.js'
export { Vault } from '../../src/vault/vault.js'
