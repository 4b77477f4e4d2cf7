import { Hono } from 'hono'
import { signIn, signOut } from '../account/session.js'
import type { SandboxEnv } from '../core/state.js'
import { revokeConnection, showConnections } from './connections.js'

/** The person's account pages, mounted at `/account`. */
export function accountRoutes() {
  const account = new Hono<SandboxEnv>()
  account.post('/sign-in', signIn)
  account.post('/sign-out', signOut)
  account.get('/connections', showConnections)
  account.post('/connections/revoke', revokeConnection)
  return account
}
