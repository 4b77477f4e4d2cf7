import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps'
import { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge'
import type { CallToolResult } from '@modelcontextprotocol/client'
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server'
import { isoDay, pacificNow } from '@countersign/sandbox/testing'
import { describe, expect, it, vi } from 'vitest'
import { HostConnection, PROTOCOL_VERSION } from '../../views/src/host.js'
import { connectorForSuite } from '../support/connector.js'
import { serviceTools } from '../support/service-tools.js'

/**
 * The views' side of the MCP Apps protocol (views/src/host.ts) against the extension's own host
 * side, AppBridge, over an in-memory link, headless: the handshake, the host's context and its
 * changes, the tool's arguments and a real result from the sandbox through the connector, and
 * teardown. The view asks the host for nothing but the handshake.
 */

const suite = connectorForSuite()
const search = serviceTools(suite, 'search', 'host-view')

/** A bridge and a view linked in memory; everything the view sent, by method. */
async function linked(context: McpUiHostContext) {
  const [hostSide, viewSide] = InMemoryTransport.createLinkedPair()
  const sent: string[] = []
  const heard = {
    contexts: [] as McpUiHostContext[],
    inputs: [] as Record<string, unknown>[],
    results: [] as CallToolResult[],
    cancelled: [] as (string | undefined)[],
  }
  const bridge = new AppBridge(
    null,
    { name: 'test-host', version: '1' },
    { openLinks: {}, serverTools: {} },
    { hostContext: context },
  )
  let initialized = false
  bridge.oninitialized = () => {
    initialized = true
  }
  await bridge.connect(hostSide)
  const view = new HostConnection(
    {
      post(message) {
        const { method } = message as { method?: string }
        if (method) sent.push(method)
        void viewSide.send(message as JSONRPCMessage)
      },
      listen(receive) {
        viewSide.onmessage = receive
        void viewSide.start()
        return () => void viewSide.close()
      },
    },
    {
      context: (c) => heard.contexts.push(c),
      input: (args) => heard.inputs.push(args),
      result: (result) => heard.results.push(result),
      cancelled: (reason) => heard.cancelled.push(reason),
    },
  )
  const answer = await view.initialize({ name: 'countersign-test', version: '1' })
  await until(() => initialized)
  return { bridge, view, sent, heard, answer }
}

/**
 * Waits for what the other side sent to arrive (each side posts through promises): as long as it
 * takes, within a bound no healthy run comes near.
 */
async function until(done: () => boolean) {
  await vi.waitFor(() => expect(done()).toBe(true), { timeout: 20_000, interval: 5 })
}

describe('the views’ protocol against AppBridge', () => {
  it('initializes at 2026-01-26 with the host’s context, and hears its changes', async () => {
    const { bridge, view, sent, heard, answer } = await linked({
      theme: 'dark',
      locale: 'de-DE',
    })
    expect(answer.protocolVersion).toBe(PROTOCOL_VERSION)
    expect(answer.hostInfo.name).toBe('test-host')
    expect(heard.contexts.at(-1)).toMatchObject({ theme: 'dark', locale: 'de-DE' })
    expect(bridge.getAppVersion()?.name).toBe('countersign-test')

    bridge.setHostContext({ theme: 'light', locale: 'de-DE' })
    await until(() => heard.contexts.at(-1)?.theme === 'light')
    expect(view.context).toMatchObject({ theme: 'light', locale: 'de-DE' })
    expect(sent).toEqual(['ui/initialize', 'ui/notifications/initialized'])
    view.close()
  })

  it('gets the call’s arguments and its real result whole; teardown is answered', async () => {
    const { call, person } = await search.newPerson('2026-07-28')
    const today = pacificNow().day
    const args = {
      siteUrl: `sc-domain:${person.user}.example`,
      startDate: isoDay(today - 30),
      endDate: isoDay(today - 3),
      dimensions: ['date'],
    }
    const result = await call('query_search_analytics', args)
    expect(result.isError).toBeFalsy()

    const { bridge, view, sent, heard } = await linked({ theme: 'light' })
    await bridge.sendToolInput({ arguments: args })
    await bridge.sendToolResult(result)
    await until(() => heard.results.length === 1)
    expect(heard.inputs).toEqual([args])
    expect(heard.results[0]!.structuredContent).toEqual(result.structuredContent)
    expect(
      (heard.results[0]!.structuredContent as { rows: unknown[] }).rows.length,
    ).toBeGreaterThan(20)

    await bridge.sendToolCancelled({ reason: 'user action' })
    await until(() => heard.cancelled.length === 1)
    expect(heard.cancelled).toEqual(['user action'])

    await expect(bridge.teardownResource({})).resolves.toEqual({})
    // The view asked for nothing: no tool call, no link, no message, no resource.
    expect(sent).toEqual(['ui/initialize', 'ui/notifications/initialized'])
    view.close()
  })
})
