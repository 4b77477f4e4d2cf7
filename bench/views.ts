import { readFileSync } from 'node:fs'
import { build } from 'esbuild'
import { VIEW_NAMES } from '@countersign/connector/testing'
import { SCRIPT } from '../packages/connector/views/build.js'
import { emit } from './stats.js'

/**
 * What each view of MCP Apps weighs as the connector serves it (built by `npm run build` into
 * packages/connector/dist/views), and, beside them, what the extension's own `App` class alone
 * weighs bundled the same way: the measure behind the views' small protocol client
 * (docs/decisions.md, "Views in the conversation").
 */
export async function benchViews(): Promise<void> {
  for (const name of VIEW_NAMES) {
    const file = new URL(`../packages/connector/dist/views/${name}.html`, import.meta.url)
    emit(`view_bytes_${name.replace(/-/g, '_')}`, readFileSync(file).byteLength, 'bytes')
  }
  const app = await build({
    stdin: {
      contents:
        "import { App } from '@modelcontextprotocol/ext-apps'\n" +
        "void new App({ name: 'bench', version: '1' }, {}).connect()",
      resolveDir: new URL('..', import.meta.url).pathname,
      loader: 'ts',
    },
    ...SCRIPT,
  })
  emit('view_bytes_ext_apps_app_alone', app.outputFiles[0]!.contents.byteLength, 'bytes')
}
