/**
 * SIGTERM (or SIGINT): stop accepting, finish the calls in flight, close, exit 0
 * (docs/operations.md, "Stopping a replica"). A second signal while that runs stops at once, with
 * exit code 1.
 */
export function closeOnSignal(close: () => Promise<void>): void {
  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1)
    stopping = true
    console.log(`${signal}: finishing the calls in flight, then stopping`)
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
