import type { JSONRPCMessage } from '@modelcontextprotocol/server'

/**
 * A JSON-RPC response: a 2025-11-25 client's answer to a question asked in its own interface.
 * Its own file, below both the questions that wait for it (legacy-questions.ts) and the box
 * where it waits across replicas (answer-box.ts).
 */
export type Answer = Extract<JSONRPCMessage, { result: unknown } | { error: unknown }>
