import { describe, expect, it } from 'vitest'
import { connectorEnvironment, sandboxUrlOf } from '../../src/connector/env.js'

const UPSTREAM = {
  UPSTREAM_AUTHORIZATION_URL: 'https://accounts.example/o/oauth2/auth',
  UPSTREAM_TOKEN_URL: 'https://oauth2.example/token',
  UPSTREAM_REVOCATION_URL: 'https://oauth2.example/revoke',
  UPSTREAM_USERINFO_URL: 'https://openidconnect.example/v1/userinfo',
  UPSTREAM_CLIENT_ID: 'client-id',
  UPSTREAM_CLIENT_SECRET: 'client-secret',
  UPSTREAM_SCOPE_PREFIX: 'https://www.example.com/auth/',
  UPSTREAM_TASKS_URL: 'https://tasks.example/tasks/v1/',
  UPSTREAM_SEARCH_URL: 'https://search.example/webmasters/v3',
  UPSTREAM_ANALYTICS_URL: 'https://analytics.example/v1beta',
}

describe('the connector environment', () => {
  it('defaults to 127.0.0.1:8080, ./data, SQLite and the built-in sandbox', () => {
    const { config, upstream, startSandbox } = connectorEnvironment({})
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:8080',
      databaseUrl: undefined,
      vaultKey: undefined,
      allowLoopbackClientMetadata: false,
    })
    expect(config.dataDir).toMatch(/\/data$/)
    expect(upstream).toBeUndefined()
    expect(startSandbox).toBe(true)
  })

  it('reads every variable', () => {
    const { config } = connectorEnvironment({
      PORT: '9000',
      HOST: '0.0.0.0',
      PUBLIC_URL: 'https://connector.example/',
      DATA_DIR: '/var/lib/countersign',
      DATABASE_URL: 'postgres://db/countersign',
      VAULT_KEY: 'k',
      DEV_ALLOW_LOOPBACK_CLIENT_METADATA: '1',
    })
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      publicUrl: 'https://connector.example',
      dataDir: '/var/lib/countersign',
      databaseUrl: 'postgres://db/countersign',
      vaultKey: 'k',
      allowLoopbackClientMetadata: true,
    })
  })

  it('uses a real provider when UPSTREAM_* are set, and then starts no sandbox', () => {
    const { upstream, startSandbox } = connectorEnvironment(UPSTREAM)
    expect(startSandbox).toBe(false)
    expect(upstream).toEqual({
      authorizationUrl: UPSTREAM.UPSTREAM_AUTHORIZATION_URL,
      tokenUrl: UPSTREAM.UPSTREAM_TOKEN_URL,
      revocationUrl: UPSTREAM.UPSTREAM_REVOCATION_URL,
      userinfoUrl: UPSTREAM.UPSTREAM_USERINFO_URL,
      clientId: 'client-id',
      clientSecret: 'client-secret',
      scopePrefix: 'https://www.example.com/auth/',
      apiBase: {
        tasks: 'https://tasks.example/tasks/v1',
        search: 'https://search.example/webmasters/v3',
        analytics: 'https://analytics.example/v1beta',
      },
    })
  })

  it('does not start the sandbox with SANDBOX=0, and finds it at SANDBOX_PORT', () => {
    expect(connectorEnvironment({ SANDBOX: '0' }).startSandbox).toBe(false)
    expect(sandboxUrlOf({ SANDBOX_PORT: '9191' })).toBe('http://127.0.0.1:9191')
    expect(sandboxUrlOf({})).toBe('http://127.0.0.1:8081')
  })

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ PUBLIC_URL: 'connector.example' }, /PUBLIC_URL must be an http\(s\) origin/],
    [{ PUBLIC_URL: 'https://connector.example/countersign' }, /PUBLIC_URL must be an origin only/],
    [{ DEV_ALLOW_LOOPBACK_CLIENT_METADATA: 'yes' }, /DEV_ALLOW_LOOPBACK_CLIENT_METADATA must be 1/],
    [{ ...UPSTREAM, UPSTREAM_TOKEN_URL: 'ftp://x' }, /UPSTREAM_TOKEN_URL must be an http\(s\) URL/],
  ])('says which variable is wrong: %o', (env, message) => {
    expect(() => connectorEnvironment(env)).toThrow(message)
  })

  it('names the UPSTREAM_* variables missing when only some are set, never their values', () => {
    const { UPSTREAM_TOKEN_URL: _t, UPSTREAM_SEARCH_URL: _s, ...partial } = UPSTREAM
    const error = (() => {
      try {
        connectorEnvironment(partial)
      } catch (e) {
        return e as Error
      }
    })()
    expect(error?.message).toMatch(/UPSTREAM_TOKEN_URL, UPSTREAM_SEARCH_URL are not/)
    expect(error?.message).not.toContain('client-secret')
  })
})
