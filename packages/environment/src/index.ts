/**
 * `@countersign/environment`: how the connector and the sandbox declare and read their
 * environment variables. Each program declares its own variables; this package holds only what
 * a declaration is, how a value is read, and the kinds of value both use.
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
