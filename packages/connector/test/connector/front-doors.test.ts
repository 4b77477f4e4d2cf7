import { describe, expect, it } from 'vitest'
import { FRONT_DOORS, frontDoors, type FrontDoor } from '../../src/connector/front-doors.js'
import { connectorForSuite } from '../support/connector.js'

/**
 * The connector's front doors (src/connector/front-doors.ts), each knocked on: it is answered
 * by whom the table says, with the CORS, frames and cache its answers are declared to carry.
 */

const suite = connectorForSuite()
const doorOf = frontDoors()

/** One request at each door (a door added to the table needs one here). */
const KNOCKS: readonly { method: string; path: string; form?: Record<string, string> }[] = [
  { method: 'GET', path: '/.well-known/oauth-authorization-server' },
  { method: 'GET', path: '/.well-known/openid-configuration' },
  { method: 'POST', path: '/oauth/token', form: { grant_type: 'authorization_code' } },
  { method: 'GET', path: '/oauth/jwks' },
  { method: 'GET', path: '/oauth/authorize' },
  { method: 'POST', path: '/tasks/mcp' },
  { method: 'GET', path: '/.well-known/oauth-protected-resource/search/mcp' },
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/connections' },
  { method: 'GET', path: '/approvals' },
  { method: 'GET', path: '/activity' },
  { method: 'GET', path: '/manifest.webmanifest' },
  { method: 'GET', path: '/icons/countersign.svg' },
  { method: 'GET', path: '/push.js' },
  { method: 'GET', path: '/healthz' },
]

const ORIGIN = 'https://assistant.example'
const ALLOWED_ORIGIN = { 'any origin': '*', 'oidc-provider': ORIGIN, none: null } as const

describe("the connector's front doors", () => {
  it('has one knock below at every door', () => {
    const knocked = new Set(KNOCKS.map(({ path }) => doorOf(path)))
    expect(FRONT_DOORS.filter((door) => !knocked.has(door)).map((door) => door.what)).toEqual([])
  })

  it.each(KNOCKS)('$method $path is answered as its door declares', async (knock) => {
    const door = doorOf(knock.path) as FrontDoor
    const res = await suite.request(knock.method, knock.path, {
      headers: { Origin: ORIGIN },
      ...(knock.form && { form: knock.form }),
    })
    expect(res.status, door.what).toBeLessThan(500)
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN[door.cors])
    if (door.cache) expect(res.headers.get('cache-control')).toBe(door.cache)
    // Answered by the part that serves the path, not by the app's 404 for a path nobody has.
    expect(res.status).not.toBe(404)
  })

  it('sends the other paths under each door to it, and a path no door has to none', () => {
    expect(doorOf('/oauth/register/abc')?.cors).toBe('any origin')
    expect(doorOf('/oauth/authorize')?.cors).toBe('none')
    expect(doorOf('/approvals/abc/notification')?.caller).toBe('page')
    expect(doorOf('/consent/uid/choose')?.caller).toBe('page')
    expect(doorOf('/nowhere')).toBeUndefined()
    expect(doorOf('/tasks/mcp/more')).toBeUndefined()
  })

  it('a path no door has is answered 404 by the app', async () => {
    const res = await suite.request('GET', '/nowhere')
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('not_found')
  })
})
