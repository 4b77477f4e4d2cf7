import { benchSandboxTasks } from './sandbox-tasks.js'

/** `npm run bench`: every figure of DESIGN §7 that exists so far, one JSON object a line. */
await benchSandboxTasks()
