import { resolve } from 'node:path'

/** Reads a port from the environment, or says exactly what is wrong with it. */
export function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`${name} must be a port number from 0 to 65535, not "${raw}".`)
  }
  return port
}

export const dataDirFromEnv = () => resolve(process.env.DATA_DIR || './data')
