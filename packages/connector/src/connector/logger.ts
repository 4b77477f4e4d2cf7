import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino'
import { read } from '@countersign/environment'
import { CONNECTOR_VARIABLES } from '../config/variables.js'

/**
 * The connector's logger. Logs never hold tokens, codes, secrets, cookies or bodies
 * (docs/design.md, "What is kept"): nothing logs a body, request logs carry the path without its
 * query string, and these paths are redacted wherever a field of that name turns up anyway.
 */
const REDACTED_PATHS = [
  'authorization',
  'cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...[
    'token',
    'access_token',
    'refresh_token',
    'id_token',
    'code',
    'code_verifier',
    'client_secret',
    'secret',
    'password',
    'state',
    'vaultKey',
    'csrf',
  ].flatMap((field) => [field, `*.${field}`]),
]

export function createLogger(options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings: LoggerOptions = {
    level: options.level ?? read(process.env, CONNECTOR_VARIABLES.LOG_LEVEL),
    ...options,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  }
  return destination ? pino(settings, destination) : pino(settings)
}
