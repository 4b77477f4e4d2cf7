import type { Logger } from 'pino'
import type { PushDevices } from './devices.js'
import type { PushSender } from './sender.js'

/**
 * Tells a person's devices that a change waits for them. The message names the change and
 * nothing else: what the notification shows, the device's service worker reads from the
 * connector with the person's own session when it shows it, so the push service carries no user
 * data even encrypted. A device its push service no longer knows is forgotten.
 */

/** What the service worker receives: the change's id, to read and decide it by. */
export interface PushedChange {
  approval: string
}

export interface ChangeToTell {
  /** The id in the change's page URL. */
  id: string
  /** A later message about the same change replaces this one at the push service. */
  topic: string
  expiresAt: number
}

export class PushNotifier {
  constructor(
    private readonly devices: Pick<PushDevices, 'toReach' | 'forget'>,
    private readonly sender: Pick<PushSender, 'send'>,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sends to each of `account`'s devices at once; how many the push services took. */
  async tell(account: string, change: ChangeToTell): Promise<number> {
    const devices = await this.devices.toReach(account)
    if (devices.length === 0) return 0
    const payload = JSON.stringify({ approval: change.id } satisfies PushedChange)
    const ttlSeconds = Math.max(1, Math.floor((change.expiresAt - this.now()) / 1000))
    const outcomes = await Promise.all(
      devices.map(async (device) => {
        const outcome = await this.sender
          .send(device.subscription, { payload, ttlSeconds, topic: change.topic })
          .catch(() => 'failed' as const)
        if (outcome === 'gone') await this.devices.forget(device.id)
        return outcome
      }),
    )
    const sent = outcomes.filter((outcome) => outcome === 'sent').length
    if (sent < outcomes.length)
      this.log.warn(
        { devices: outcomes.length, sent, outcomes: [...new Set(outcomes)] },
        'a change could not be told to every device',
      )
    return sent
  }
}
