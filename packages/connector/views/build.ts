import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions } from 'esbuild'
import { VIEW_NAMES, VIEWS, type ViewName } from '../src/services/views.js'

/**
 * Builds each view (docs/design.md, "Views in the conversation") into one self-contained HTML
 * document: its script bundled and minified by esbuild, uPlot's stylesheet and the views' own
 * inlined, nothing loaded from elsewhere, and a Content-Security-Policy that lets the document
 * reach no network origin whatever the host allows. Run by `npm run build`; prints what each
 * weighs.
 */

const HERE = new URL('./', import.meta.url)
const OUT = new URL('../dist/views/', import.meta.url)

/** The document's own policy: inline script and style, and nothing else; no request leaves it. */
const POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"

/** How a view's script is bundled: one minified file for today's browsers, nothing left out. */
export const SCRIPT = {
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2022',
  legalComments: 'none',
  write: false,
} satisfies BuildOptions

export interface BuiltView {
  name: ViewName
  bytes: number
}

export async function buildViews(out: URL = OUT): Promise<BuiltView[]> {
  mkdirSync(out, { recursive: true })
  const style = [
    readFileSync(fileURLToPath(import.meta.resolve('uplot/dist/uPlot.min.css')), 'utf8'),
    readFileSync(new URL('src/view.css', HERE), 'utf8'),
  ].join('\n')
  const css = (
    await build({ stdin: { contents: style, loader: 'css' }, minify: true, write: false })
  ).outputFiles[0]!.text
  return Promise.all(
    VIEW_NAMES.map(async (name) => {
      const script = await build({
        ...SCRIPT,
        entryPoints: [fileURLToPath(new URL(`src/${name}.ts`, HERE))],
      })
      const html = documentOf(VIEWS[name].title, css, script.outputFiles[0]!.text)
      writeFileSync(new URL(`${name}.html`, out), html)
      return { name, bytes: Buffer.byteLength(html) }
    }),
  )
}

function documentOf(title: string, css: string, js: string): string {
  // Neither may close its element early.
  const style = css.replace(/<\/style/gi, '<\\/style')
  const script = js.replace(/<\/script/gi, '<\\/script')
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`,
    `<title>${title}</title>`,
    `<style>${style}</style>`,
    '</head>',
    `<body><script>${script}</script></body>`,
    '</html>',
  ].join('\n')
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const view of await buildViews())
    process.stdout.write(`views: ${view.name}.html ${(view.bytes / 1024).toFixed(1)} KB\n`)
}
