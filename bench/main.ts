import { benchAnalytics } from './analytics.js'
import { benchConnectorTools } from './connector-tools.js'
import { benchDatabaseOutage } from './database-outage.js'
import { benchMcpHandler } from './mcp-handler.js'
import { emitGoals } from './goals.js'
import { benchModelBudget } from './model-budget.js'
import { benchOrganization } from './organization.js'
import { benchOutages } from './outages.js'
import { node24 } from './runtime.js'
import { benchSandboxTasks } from './sandbox-tasks.js'
import { benchSearch } from './search.js'
import { benchTapToChange } from './tap-to-change.js'
import { benchToolSteps } from './tool-steps.js'
import { benchViews } from './views.js'

/** `npm run bench`: every figure of docs/performance.md, "The figures", one JSON object a line. */
await benchModelBudget()
await benchViews()
await benchSandboxTasks()
await benchConnectorTools()
// The same call with the connector, the sandbox and the floor on Node 24, the production runtime.
const production = await node24()
if (production) await benchConnectorTools(production)
await benchMcpHandler()
await benchToolSteps()
if (production) await benchToolSteps(production)
await benchSearch()
await benchAnalytics()
await benchOutages()
await benchDatabaseOutage()
await benchTapToChange()
await benchOrganization()
// Last, each goal against the figures above, with what holds the ones short of it.
emitGoals()
