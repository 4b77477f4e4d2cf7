import { Hono } from 'hono'
import { appIconSvg, type IconShape } from './app-icon.js'

/**
 * The person's pages as an app a phone installs on its home screen (a web app manifest), opening
 * on the changes waiting for them, so that an approval is one tap from anywhere. The icons are
 * served from memory: the SVG for browser tabs, PNGs for home screens (app-icon.ts).
 */

export const MANIFEST_PATH = '/manifest.webmanifest'
export const ICONS_PATH = '/icons'

/** The pages' background in each scheme (pages/page-style.ts): the app's bars blend into it. */
export const THEME_COLORS = { light: '#f3f4f6', dark: '#0e1115' } as const

export interface AppIcon {
  file: string
  size: number
  type: 'image/png' | 'image/svg+xml'
  shape: IconShape
}

/** Every icon served; the manifest lists all but the square one, which is Safari's. */
export const APP_ICONS: readonly AppIcon[] = [
  { file: 'countersign.svg', size: 100, type: 'image/svg+xml', shape: 'rounded' },
  { file: 'countersign-180.png', size: 180, type: 'image/png', shape: 'square' },
  { file: 'countersign-192.png', size: 192, type: 'image/png', shape: 'rounded' },
  { file: 'countersign-512.png', size: 512, type: 'image/png', shape: 'rounded' },
  { file: 'countersign-maskable-512.png', size: 512, type: 'image/png', shape: 'maskable' },
]

export const iconUrl = (file: string) => `${ICONS_PATH}/${file}`
export const SAFARI_ICON = iconUrl('countersign-180.png')
export const TAB_ICON = iconUrl('countersign.svg')

const manifest = {
  name: 'Countersign',
  short_name: 'Countersign',
  description: 'The changes your assistants ask to make, waiting for your approval.',
  id: '/approvals',
  start_url: '/approvals',
  scope: '/',
  display: 'standalone',
  background_color: THEME_COLORS.light,
  theme_color: THEME_COLORS.light,
  icons: APP_ICONS.filter((icon) => icon.shape !== 'square').map((icon) => ({
    src: iconUrl(icon.file),
    sizes: icon.type === 'image/svg+xml' ? 'any' : `${icon.size}x${icon.size}`,
    type: icon.type,
    ...(icon.shape === 'maskable' && { purpose: 'maskable' }),
  })),
}

/** A day: the icons change only with a release, and a stale one costs nothing. */
export const APP_FILES_CACHE = 'public, max-age=86400'

export function appManifestRoutes() {
  const app = new Hono()
  const manifestText = JSON.stringify(manifest)
  const svg = appIconSvg()
  app.get(MANIFEST_PATH, (c) =>
    c.body(manifestText, 200, {
      'Content-Type': 'application/manifest+json',
      'Cache-Control': APP_FILES_CACHE,
    }),
  )
  let pngs: Readonly<Record<string, string>> | undefined
  app.get(`${ICONS_PATH}/:file`, async (c) => {
    const icon = APP_ICONS.find((one) => one.file === c.req.param('file'))
    if (!icon) return c.json({ error: 'not_found', error_description: 'No such icon.' }, 404)
    const headers = { 'Content-Type': icon.type, 'Cache-Control': APP_FILES_CACHE }
    if (icon.type === 'image/svg+xml') return c.body(svg, 200, headers)
    // Read only when a device asks: a replica that serves no page never holds them.
    pngs ??= (await import('./app-icons.generated.js')).APP_ICON_PNGS
    return c.body(Buffer.from(pngs[icon.file]!, 'base64'), 200, headers)
  })
  return app
}
