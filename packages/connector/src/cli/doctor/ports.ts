import { createServer } from 'node:net'
import { listenError, type Listening } from '@countersign/environment'
import type { ConnectorConfig } from '../../config/config.js'
import { localOrigin } from '../../config/loopback.js'
import { fix, note, ok, type Finding } from './findings.js'

/**
 * The ports the connector listens on, free here: PORT on HOST and, with metrics on,
 * METRICS_PORT on METRICS_HOST; each said in the words the connector's own start uses.
 */
export async function portFindings(
  config: Pick<ConnectorConfig, 'port' | 'host' | 'metrics'>,
): Promise<Finding[]> {
  const findings = [await portFinding({ portVariable: 'PORT', hostVariable: 'HOST', ...config })]
  if (config.metrics)
    findings.push(
      await portFinding({
        portVariable: 'METRICS_PORT',
        hostVariable: 'METRICS_HOST',
        port: config.metrics.port,
        host: config.metrics.host,
        otherwise: 'or to 0 to turn metrics off',
        optional: config.metrics.optional,
      }),
    )
  return findings
}

/** `optional`: the default metrics port, which the connector does without when it is taken. */
async function portFinding(at: Listening & { optional?: boolean }): Promise<Finding> {
  if (at.port === 0) return note(`${at.portVariable} 0: the connector takes a free port`)
  const error = await listenOnce(at.host, at.port)
  if (!error) return ok(`${at.portVariable} ${at.port} on ${at.host} is free`)
  const said = listenError(error, at).message
  if (at.optional && error.code === 'EADDRINUSE')
    return note(`${said} Unset, it is only the default: the connector then starts without metrics.`)
  if (error.code === 'EADDRINUSE' && (await answersHealth(at.host, at.port)))
    return fix(`${said} A server there answers /healthz: stop it first, if it is a connector.`)
  return fix(said)
}

/** Listens and closes at once: the error of listening, or undefined when the port is free. */
function listenOnce(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', (error) => resolve(error as NodeJS.ErrnoException))
    server.listen(port, host, () => server.close(() => resolve(undefined)))
  })
}

async function answersHealth(host: string, port: number): Promise<boolean> {
  try {
    const response = await fetch(`${localOrigin(host, port)}/healthz`, {
      signal: AbortSignal.timeout(2_000),
    })
    await response.body?.cancel()
    return response.ok
  } catch {
    return false
  }
}
