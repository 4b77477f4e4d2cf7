import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxEnvironment } from '../../src/cli/env.js'
import { DEFAULT_SCOPE_PREFIX } from '../../src/core/config.js'

describe('the sandbox environment', () => {
  it('defaults to 127.0.0.1, ports 8081 and 8082, ./data and its own scope prefix', () => {
    expect(sandboxEnvironment({})).toEqual({
      port: 8081,
      googlePort: 8082,
      host: '127.0.0.1',
      dataDir: resolve('./data'),
      publicUrl: undefined,
      googlePublicUrl: undefined,
      scopePrefix: DEFAULT_SCOPE_PREFIX,
    })
  })

  it('reads every variable; a public URL is an origin, without its trailing slash', () => {
    expect(
      sandboxEnvironment({
        SANDBOX_PORT: '9191',
        SANDBOX_GOOGLE_PORT: '0',
        SANDBOX_HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/sandbox',
        SANDBOX_PUBLIC_URL: 'http://sandbox.internal:9191/',
        SANDBOX_GOOGLE_PUBLIC_URL: 'https://google.sandbox.internal',
        SANDBOX_SCOPE_PREFIX: 'https://scopes.example/',
      }),
    ).toEqual({
      port: 9191,
      googlePort: 0,
      host: '0.0.0.0',
      dataDir: '/var/lib/sandbox',
      publicUrl: 'http://sandbox.internal:9191',
      googlePublicUrl: 'https://google.sandbox.internal',
      scopePrefix: 'https://scopes.example/',
    })
  })

  it.each([
    [
      { SANDBOX_PORT: 'eighty' },
      /^SANDBOX_PORT must be a port number from 0 to 65535, not "eighty"\.$/,
    ],
    [{ SANDBOX_GOOGLE_PORT: '65536' }, /^SANDBOX_GOOGLE_PORT must be a port number/],
    [{ SANDBOX_HOST: 'http://0.0.0.0' }, /^SANDBOX_HOST must be an IP address or a host name/],
    [{ SANDBOX_PUBLIC_URL: 'sandbox.internal' }, /^SANDBOX_PUBLIC_URL must be an http\(s\) origin/],
    [
      { SANDBOX_GOOGLE_PUBLIC_URL: 'http://g.internal/v1' },
      /^SANDBOX_GOOGLE_PUBLIC_URL must be an origin only \(scheme, host and port, no path\)/,
    ],
  ])('says which variable is wrong: %o', (env, message) => {
    expect(() => sandboxEnvironment(env)).toThrow(message)
  })
})
