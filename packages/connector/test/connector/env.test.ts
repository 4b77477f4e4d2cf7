import { describe, expect, it } from 'vitest'
import { read } from '@countersign/environment'
import { CONNECTOR_VARIABLES } from '../../src/config/variables.js'
import {
  connectorEnvironment,
  sandboxGoogleUrlOf,
  sandboxScopePrefixOf,
  sandboxUrlOf,
  type Environment,
} from '../../src/connector/env.js'

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
      rateLimits: {
        registrationsPerMinute: 120,
        tokenRequestsPerMinute: 600,
        toolCallsPerMinute: 120,
      },
    })
    expect(config.dataDir).toMatch(/\/data$/)
    expect(upstream).toBeUndefined()
    expect(startSandbox).toBe(true)
  })

  it('UPSTREAM_PROFILE=google alone: the sandbox, in its Google dialect', () => {
    const { profile, upstream, startSandbox } = connectorEnvironment({ UPSTREAM_PROFILE: 'google' })
    expect(profile).toBe('google')
    expect(upstream).toBeUndefined()
    expect(startSandbox).toBe(true)
    expect(sandboxGoogleUrlOf({})).toBe('http://127.0.0.1:8082')
    expect(sandboxGoogleUrlOf({ SANDBOX_GOOGLE_PORT: '9292' })).toBe('http://127.0.0.1:9292')
  })

  it("UPSTREAM_PROFILE=google with a Google Cloud OAuth client: every other setting is Google's", () => {
    const { upstream, startSandbox } = connectorEnvironment({
      UPSTREAM_PROFILE: 'google',
      UPSTREAM_CLIENT_ID: '123-abc.apps.googleusercontent.com',
      UPSTREAM_CLIENT_SECRET: 'GOCSPX-secret',
    })
    expect(startSandbox).toBe(false)
    expect(upstream).toEqual({
      profile: 'google',
      name: 'Google',
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revocationUrl: 'https://oauth2.googleapis.com/revoke',
      userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
      clientId: '123-abc.apps.googleusercontent.com',
      clientSecret: 'GOCSPX-secret',
      scopePrefix: 'https://www.googleapis.com/auth/',
      apiBase: {
        tasks: 'https://tasks.googleapis.com/tasks/v1',
        search: 'https://searchconsole.googleapis.com',
        analytics: 'https://analyticsdata.googleapis.com/v1beta',
        analyticsAdmin: 'https://analyticsadmin.googleapis.com/v1beta',
      },
    })
  })

  it('UPSTREAM_PROFILE=google: each setting can still be set (tests point it at the sandbox)', () => {
    const { upstream } = connectorEnvironment({
      UPSTREAM_PROFILE: 'google',
      UPSTREAM_CLIENT_ID: 'countersign',
      UPSTREAM_CLIENT_SECRET: 's',
      UPSTREAM_TOKEN_URL: 'http://127.0.0.1:8082/token',
      UPSTREAM_TASKS_URL: 'http://127.0.0.1:8082/tasks/v1/',
      UPSTREAM_NAME: 'Work Google',
    })
    expect(upstream).toMatchObject({
      name: 'Work Google',
      tokenUrl: 'http://127.0.0.1:8082/token',
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      apiBase: { tasks: 'http://127.0.0.1:8082/tasks/v1' },
    })
  })

  it.each([
    [{ UPSTREAM_PROFILE: 'gmail' }, /UPSTREAM_PROFILE must be generic or google, not "gmail"/],
    [
      { UPSTREAM_PROFILE: 'google', UPSTREAM_CLIENT_SECRET: 'GOCSPX-secret' },
      /UPSTREAM_CLIENT_SECRET is set, .* but UPSTREAM_CLIENT_ID is not: .*but UPSTREAM_PROFILE/,
    ],
    [{ UPSTREAM_PROFILE: 'google', UPSTREAM_CLIENT_ID: 'id' }, /but UPSTREAM_CLIENT_SECRET is not/],
  ])('a Google profile that cannot work says what to set: %o', (env, message) => {
    expect(() => connectorEnvironment(env)).toThrow(message)
    try {
      connectorEnvironment(env)
    } catch (error) {
      expect((error as Error).message).not.toContain('GOCSPX-secret')
    }
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
      RATE_LIMIT_REGISTRATIONS_PER_MINUTE: '30',
      RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE: '3000',
      RATE_LIMIT_TOOL_CALLS_PER_MINUTE: '1000000000',
    })
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      publicUrl: 'https://connector.example',
      dataDir: '/var/lib/countersign',
      databaseUrl: 'postgres://db/countersign',
      vaultKey: 'k',
      allowLoopbackClientMetadata: true,
      rateLimits: {
        registrationsPerMinute: 30,
        tokenRequestsPerMinute: 3000,
        toolCallsPerMinute: 1_000_000_000,
      },
    })
  })

  it('AUDIT_RETENTION_DAYS: days from 1 to 3650, 90 unset', () => {
    expect(connectorEnvironment({}).config.auditRetentionDays).toBe(90)
    expect(connectorEnvironment({ AUDIT_RETENTION_DAYS: '30' }).config.auditRetentionDays).toBe(30)
    for (const value of ['0', '3651', '7.5', 'a month'])
      expect(() => connectorEnvironment({ AUDIT_RETENTION_DAYS: value })).toThrow(
        `AUDIT_RETENTION_DAYS must be a whole number of days from 1 to 3650, not "${value}".`,
      )
  })

  it('keeps the default of each rate limit left unset', () => {
    const { config } = connectorEnvironment({ RATE_LIMIT_TOOL_CALLS_PER_MINUTE: '300' })
    expect(config.rateLimits).toEqual({
      registrationsPerMinute: 120,
      tokenRequestsPerMinute: 600,
      toolCallsPerMinute: 300,
    })
  })

  it('reads the generic profile by its first name, seed, too', () => {
    expect(connectorEnvironment({}).profile).toBe('generic')
    expect(connectorEnvironment({ UPSTREAM_PROFILE: 'seed' }).profile).toBe('generic')
    expect(connectorEnvironment({ ...UPSTREAM, UPSTREAM_PROFILE: 'seed' }).upstream?.profile).toBe(
      'generic',
    )
  })

  it('uses a real provider when UPSTREAM_* are set, and then starts no sandbox', () => {
    const { upstream, startSandbox } = connectorEnvironment(UPSTREAM)
    expect(startSandbox).toBe(false)
    expect(upstream).toEqual({
      profile: 'generic',
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
        // Unset: the Admin API on the analytics API's base.
        analyticsAdmin: 'https://analytics.example/v1beta',
      },
    })
  })

  it('does not start the sandbox with SANDBOX=0, and finds it at SANDBOX_PORT', () => {
    expect(connectorEnvironment({ SANDBOX: '0' }).startSandbox).toBe(false)
    expect(connectorEnvironment({ SANDBOX: '1' }).startSandbox).toBe(true)
    expect(sandboxUrlOf({ SANDBOX_PORT: '9191' })).toBe('http://127.0.0.1:9191')
    expect(sandboxUrlOf({})).toBe('http://127.0.0.1:8081')
    expect(sandboxUrlOf({ SANDBOX_PUBLIC_URL: 'http://sandbox.internal:8081/' })).toBe(
      'http://sandbox.internal:8081',
    )
    expect(sandboxScopePrefixOf({})).toBe('https://sandbox.countersign.test/auth/')
    expect(sandboxScopePrefixOf({ SANDBOX_SCOPE_PREFIX: 'https://scopes.example/' })).toBe(
      'https://scopes.example/',
    )
  })

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a port number/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ PUBLIC_URL: 'connector.example' }, /PUBLIC_URL must be an http\(s\) origin/],
    [{ PUBLIC_URL: 'https://connector.example/countersign' }, /PUBLIC_URL must be an origin only/],
    [{ DEV_ALLOW_LOOPBACK_CLIENT_METADATA: 'yes' }, /DEV_ALLOW_LOOPBACK_CLIENT_METADATA must be 1/],
    [{ SANDBOX: 'no' }, /^SANDBOX must be 1 \(on\) or 0 \(off\), not "no"\.$/],
    [{ HOST: 'http://0.0.0.0' }, /^HOST must be an IP address or a host name to bind to/],
    [{ ...UPSTREAM, UPSTREAM_TOKEN_URL: 'ftp://x' }, /UPSTREAM_TOKEN_URL must be an http\(s\) URL/],
    ...[
      'RATE_LIMIT_REGISTRATIONS_PER_MINUTE',
      'RATE_LIMIT_TOKEN_REQUESTS_PER_MINUTE',
      'RATE_LIMIT_TOOL_CALLS_PER_MINUTE',
    ].flatMap((name) =>
      ['0', '-5', '2.5', '1e3', ' 60', 'lots', '1000000001'].map((value): [Environment, RegExp] => [
        { [name]: value },
        new RegExp(
          `^${name} must be a whole number of requests a minute from 1 to 1000000000, not "${value.replace('.', '\\.')}"\\.$`,
        ),
      ]),
    ),
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

describe('the metrics environment', () => {
  it('serves /metrics on 127.0.0.1:9464 without a token by default', () => {
    // The default port, not one the operator chose: taken, the connector starts without metrics.
    expect(connectorEnvironment({}).config.metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
      optional: true,
    })
  })

  it('reads METRICS_PORT, METRICS_HOST and METRICS_TOKEN', () => {
    const token = 'f'.repeat(16) + '-._~+/='
    expect(
      connectorEnvironment({ METRICS_PORT: '9100', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: token })
        .config.metrics,
    ).toEqual({ port: 9100, host: '0.0.0.0', token })
    expect(connectorEnvironment({ METRICS_HOST: '::1' }).config.metrics?.host).toBe('::1')
    expect(connectorEnvironment({ METRICS_HOST: 'metrics.internal' }).config.metrics?.host).toBe(
      'metrics.internal',
    )
  })

  it('METRICS_PORT=0 turns metrics off (unlike PORT=0, which picks a free port)', () => {
    expect(connectorEnvironment({ METRICS_PORT: '0' }).config.metrics).toBeUndefined()
    expect(connectorEnvironment({ PORT: '0' }).config.metrics?.port).toBe(9464)
  })

  it.each([
    [
      { METRICS_PORT: 'ninety' },
      /^METRICS_PORT must be a port number from 0 to 65535, not "ninety"/,
    ],
    [{ METRICS_PORT: '65536' }, /^METRICS_PORT must be a port number/],
    [{ METRICS_PORT: '-1' }, /^METRICS_PORT must be a port number/],
    [{ METRICS_PORT: '9.5' }, /^METRICS_PORT must be a port number/],
    [{ PORT: '9464' }, /^METRICS_PORT must differ from PORT \(both are 9464\)/],
    [{ PORT: '9000', METRICS_PORT: '9000' }, /^METRICS_PORT must differ from PORT/],
    [{ METRICS_HOST: 'http://0.0.0.0' }, /^METRICS_HOST must be an IP address or a host name/],
    [{ METRICS_HOST: '127.0.0.1:9464' }, /^METRICS_HOST must be an IP address or a host name/],
  ])('says which variable is wrong: %o', (env, message) => {
    expect(() => connectorEnvironment(env)).toThrow(message)
  })

  it('refuses a METRICS_TOKEN too short or not one header word, without repeating it', () => {
    for (const [token, message] of [
      ['short-secret', /^METRICS_TOKEN must be at least 16 characters long/],
      ['a secret with spaces in it', /^METRICS_TOKEN must be printable ASCII without spaces/],
      ['sécret-sécret-sécret', /^METRICS_TOKEN must be printable ASCII without spaces/],
    ] as const) {
      const error = (() => {
        try {
          connectorEnvironment({ METRICS_TOKEN: token })
        } catch (e) {
          return e as Error
        }
      })()
      expect(error?.message).toMatch(message)
      expect(error?.message).not.toContain(token)
    }
  })
})

describe('the logging environment', () => {
  it('reads LOG_LEVEL as one of pino’s levels, info unset', () => {
    expect(read({}, CONNECTOR_VARIABLES.LOG_LEVEL)).toBe('info')
    expect(read({ LOG_LEVEL: 'debug' }, CONNECTOR_VARIABLES.LOG_LEVEL)).toBe('debug')
    expect(() => read({ LOG_LEVEL: 'loud' }, CONNECTOR_VARIABLES.LOG_LEVEL)).toThrow(
      'LOG_LEVEL must be fatal, error, warn, info, debug, trace or silent, not "loud".',
    )
  })
})
