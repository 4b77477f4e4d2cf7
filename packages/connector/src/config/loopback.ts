import { isIP } from 'node:net'

/**
 * Loopback names and addresses: a URL on one never leaves the machine. One definition for every
 * rule that treats them specially (redirect URIs, provider URLs over http, development metadata
 * documents, the Host check of a connector that listens on loopback).
 */
export const isLoopbackHostname = (hostname: string) =>
  hostname === 'localhost' || hostname === '[::1]' || isLoopbackAddress(hostname)

/** The host name a Host header names (without its port); undefined if it names none. */
export const hostnameOfHeader = (host: string | null | undefined) =>
  host ? URL.parse(`http://${host}`)?.hostname : undefined

/**
 * The origin through which this machine reaches a server listening on `host` and `port`: a
 * wildcard address (all interfaces) through 127.0.0.1, an IPv6 address in brackets.
 */
export function localOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`
}

export const isLoopbackAddress = (address: string) =>
  address === '::1' ||
  (isIP(address) === 4 && address.startsWith('127.')) ||
  address.startsWith('::ffff:127.')
