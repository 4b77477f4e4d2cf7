import { Hono } from 'hono'
import type { SandboxEnv } from '../state.js'
import { revokeConnection, showConnections } from './connections.js'
import { signIn, signOut } from './session.js'

/** The person's account pages, mounted at `/account`. */
export function accountRoutes() {
  const account = new Hono<SandboxEnv>()
  account.post('/sign-in', signIn)
  account.post('/sign-out', signOut)
  account.get('/connections', showConnections)
  account.post('/connections/revoke', revokeConnection)
  return account
}
