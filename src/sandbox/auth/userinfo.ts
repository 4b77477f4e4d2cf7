import type { Context } from 'hono'
import type { SandboxEnv } from '../app.js'
import { authenticate } from './bearer.js'

/** `GET /oauth/userinfo`: who the bearer access token (of any scope) belongs to. */
export async function userinfo(c: Context<SandboxEnv>) {
  const principal = await authenticate(c)
  c.header('Cache-Control', 'no-store')
  return c.json({ sub: principal.user })
}
