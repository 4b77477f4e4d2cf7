// Loaded with `--import` (processes.ts, `moduleLog`): appends the URL of every module Node's
// loader loads to the file COUNTERSIGN_MODULE_LOG names, one a line. JavaScript, so that it runs
// in a compiled program's process, which has no TypeScript loader.
import { appendFileSync } from 'node:fs'
import { register } from 'node:module'
import process from 'node:process'
import { isMainThread } from 'node:worker_threads'

// This file is also the hooks' module, which Node loads again on its hooks thread.
if (isMainThread) register(import.meta.url, { data: process.env.COUNTERSIGN_MODULE_LOG })

let file
export function initialize(data) {
  file = data
}

export async function load(url, context, nextLoad) {
  appendFileSync(file, `${url}\n`)
  return nextLoad(url, context)
}
