/**
 * `@countersign/environment`: what the connector and the sandbox share of the machine they run
 * on, written once for both (the two programs never import each other). How they declare and
 * read their environment variables: each program declares its own, this holds what a
 * declaration is, how a value is read, and the kinds of value both use. Why a server could not
 * listen. Data files and folders for their owner only. And the answers a server sends before a
 * request's body has arrived.
 */
export {
  declareVariables,
  isSet,
  read,
  Refusal,
  type Environment,
  type Kind,
  type Variable,
} from './variable.js'
export * from './kinds.js'
export { listenError, type Listening } from './listening.js'
export { OWNER_ONLY_FILE, openToOthers, ownerOnlyDatabase, ownerOnlyFolder } from './owner-only.js'
export { EarlyAnswerResponse } from './early-answers.js'
