import { node24Binary } from '../test/support/node24.js'

/** A Node to run the connector's processes on, and the suffix of the figures measured on it. */
export interface Runtime {
  node: string
  suffix: string
}

/**
 * Node 24, the production runtime (test/support/node24.ts). Undefined, and the figures left out,
 * where it cannot be had.
 */
export async function node24(): Promise<Runtime | undefined> {
  try {
    return { node: await node24Binary(), suffix: '_node24' }
  } catch (error) {
    process.stderr.write(`bench: no Node 24 (${(error as Error).message.split('\n')[0]})\n`)
    return undefined
  }
}
