import type { ToolCall } from './context.js'

/** The audit trail of a change that was sent: never its payload. */
export async function recordChange(
  call: ToolCall,
  decision: 'executed' | 'failed',
  upstreamStatus: number | undefined,
): Promise<void> {
  const approvalId = call.var.approvalId
  if (approvalId === undefined) return
  try {
    await call.parts.audit?.record({
      grantId: call.need('grant').link.grantId,
      tool: call.definition.name,
      decision,
      upstreamStatus,
      approvalId,
    })
  } catch (error) {
    // The change is made (or refused) whatever the trail says: the answer must tell it.
    call.parts.log.error(
      { err: error, tool: call.definition.name },
      'could not record an audit event',
    )
  }
}
