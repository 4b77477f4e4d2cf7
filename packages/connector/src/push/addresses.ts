import { BlockList, isIP } from 'node:net'
import { isLoopbackAddress } from '../config/loopback.js'
import { guardedLookup } from '../http/outbound.js'

/**
 * Where a push may go: a push endpoint is a URL a browser hands the connector, so it could name
 * any host. Only public addresses are reached. A name is checked when the connection is made,
 * against every address it resolves to, so a name that resolves to the connector's own network
 * (or changes to one between the check and the send) reaches nothing.
 */

/** Special-use ranges (RFC 6890 and its successors): nothing a push service lives on. */
const SPECIAL_USE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  SPECIAL_USE.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  SPECIAL_USE.addSubnet(network, prefix, 'ipv6')

/** Whether `address` (an IP address) is one a push may reach. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  // An IPv4 address written as IPv6 is judged as the IPv4 address it is.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
  if (mapped) return !SPECIAL_USE.check(mapped, 'ipv4')
  return !SPECIAL_USE.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** The code of a connection refused for where it would go. */
export const NO_PUSH_ADDRESS = 'ERR_NO_PUSH_ADDRESS'

/**
 * Resolves a push service's name to the addresses a push may reach: public ones, and with
 * `loopback` (development only) this machine's too.
 */
export const pushLookup = (loopback: boolean) =>
  guardedLookup((address) => isPublicAddress(address) || (loopback && isLoopbackAddress(address)), {
    code: NO_PUSH_ADDRESS,
    message: (hostname) => `${hostname} resolves to no address a push may reach`,
  })
