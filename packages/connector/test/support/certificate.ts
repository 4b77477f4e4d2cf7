import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A self-signed development certificate made for this run with `openssl`, like the one a local
 * MCP client serves its client metadata document with. `names` are subjectAltName entries
 * (`IP:127.0.0.1`, `DNS:localhost`).
 */
export function selfSignedCertificate(names: string[]): { cert: string; key: string } {
  const scratch = mkdtempSync(join(tmpdir(), 'countersign-cert-'))
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(scratch, 'key.pem'),
        '-out',
        join(scratch, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=countersign test client',
        '-addext',
        `subjectAltName=${names.join(',')}`,
      ],
      { stdio: 'ignore' },
    )
    return {
      cert: readFileSync(join(scratch, 'cert.pem'), 'utf8'),
      key: readFileSync(join(scratch, 'key.pem'), 'utf8'),
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
