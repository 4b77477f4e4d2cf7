import type { Ended, Step, ToolCall } from './context.js'

/**
 * The steps as one function, each handing on to the next, in the order given (as Hono's
 * `compose` runs middleware). The last step ends every call: one that hands on is a fault.
 * With `costs`, each step's own CPU time and statements are counted: what it used from its
 * start to its end, less what the steps it handed on to used.
 */
export function compose(
  steps: readonly Step[],
  costs?: StepMeter,
): (call: ToolCall) => Promise<Ended> {
  const run = (call: ToolCall, index: number): Promise<Ended> => {
    const step = steps[index]
    if (!step) return Promise.reject(new Error('the last step of a tool call handed it on'))
    if (!costs) return step.run(call, () => run(call, index + 1))
    return measured(costs, step, call, () => run(call, index + 1))
  }
  return (call) => run(call, 0)
}

/**
 * What measures each step's own costs when asked (METRICS_TOOL_STEPS=1): readings taken around
 * each step, and what a step used itself, told to it (packages/connector/src/metrics/step-costs.ts
 * reads the clocks and counts them).
 */
export interface StepMeter {
  /** A reading to subtract from a later one. */
  read(): StepReading
  add(step: string, own: StepReading): void
}

export interface StepReading {
  cpuMicros: number
  /** 0 where the runtime cannot tell the main thread's time. */
  mainThreadMicros: number
  statements: number
}

const between = (from: StepReading, to: StepReading): StepReading => ({
  cpuMicros: to.cpuMicros - from.cpuMicros,
  mainThreadMicros: to.mainThreadMicros - from.mainThreadMicros,
  statements: to.statements - from.statements,
})

async function measured(
  costs: StepMeter,
  step: Step,
  call: ToolCall,
  next: () => Promise<Ended>,
): Promise<Ended> {
  let after: StepReading = { cpuMicros: 0, mainThreadMicros: 0, statements: 0 }
  const start = costs.read()
  try {
    return await step.run(call, async () => {
      const handed = costs.read()
      try {
        return await next()
      } finally {
        after = between(handed, costs.read())
      }
    })
  } finally {
    const whole = between(start, costs.read())
    costs.add(step.name, between(after, whole))
  }
}
