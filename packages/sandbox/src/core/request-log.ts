import type { DialectName } from './dialect.js'

/** One request the sandbox received, as the control API's request log keeps it. */
export interface LoggedRequest {
  method: string
  /** The raw path as received, without its query string. */
  path: string
  /** The status answered; 0 when the connection was reset instead. */
  status: number
  /** The origin that received it: the generic dialect (S) or Google's (G). */
  dialect: DialectName
}

/** The requests the sandbox received, oldest first, for tests that count upstream calls. */
export class RequestLog {
  private entries: LoggedRequest[] = []

  constructor(private readonly capacity = 10_000) {}

  record(entry: LoggedRequest): void {
    this.entries.push(entry)
    if (this.entries.length > this.capacity)
      this.entries.splice(0, this.entries.length - this.capacity)
  }

  list(): readonly LoggedRequest[] {
    return this.entries
  }

  clear(): void {
    this.entries = []
  }
}
