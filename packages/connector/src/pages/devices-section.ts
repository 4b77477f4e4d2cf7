import { html } from 'hono/html'
import { DEVICES_PATH, PUSH_SCRIPT_PATH } from './push-scripts.js'
import { endingForm, time } from './page.js'

/**
 * Notifications on the person's devices, as the approvals and connections pages show them: the
 * button that turns them on for this device (push-scripts.ts does the rest), and on the
 * connections page every device that shows them, each with Remove.
 */

export interface NotificationsOffer {
  /** The server's VAPID public key, which the device's subscription is made for. */
  publicKey: string
  /** The subscription post's CSRF token. */
  csrf: string
}

export interface DeviceView {
  id: string
  label: string
  createdAt: number
}

/** The button; without a browser that can, what to do instead. */
export function notificationsOffer(offer: NotificationsOffer) {
  return html`<section class="card" aria-labelledby="notify-heading">
    <h2 id="notify-heading">Notifications on this device</h2>
    <p>
      Be told on this device when an assistant asks to change something, and approve or decline it
      from the notification, without coming back to this page.
    </p>
    <div class="actions">
      <button
        type="button"
        name="Notify"
        data-push-key="${offer.publicKey}"
        data-csrf="${offer.csrf}"
        hidden
      >
        Turn on notifications
      </button>
    </div>
    <noscript
      ><p class="note">Turning notifications on needs JavaScript in this browser.</p></noscript
    >
    <p class="note" data-push-status role="status" hidden></p>
    <script src="${PUSH_SCRIPT_PATH}" defer></script>
  </section>`
}

/** The person's devices, newest first, each with Remove. */
export function devicesList(devices: readonly DeviceView[], csrf: string) {
  if (devices.length === 0) return ''
  return html`<h2>Devices that show notifications (${devices.length})</h2>
    <ul class="plain">
      ${devices.map(
        (device) =>
          html`<li class="card">
            <h3>${device.label}</h3>
            <p class="meta">Added ${time(device.createdAt)}.</p>
            ${endingForm(`${DEVICES_PATH}/remove`, csrf, { name: 'device', value: device.id }, 'Remove')}
          </li>`,
      )}
    </ul>`
}
