/**
 * Why a server could not listen, in one line that names the variables to change: a port another
 * process holds (`PORT 8080 is already in use on 127.0.0.1: set PORT to a free port.`), a port
 * this user may not take, an address that is not the machine's. Both programs' servers say it so.
 */
export interface Listening {
  /** The variable that sets the port, and the one that sets the address. */
  portVariable: string
  hostVariable: string
  port: number
  host: string
  /** Another way out, said after the first: "or to 0 to turn metrics off". */
  otherwise?: string
}

export function listenError(error: NodeJS.ErrnoException, at: Listening): Error {
  const { portVariable, hostVariable, port, host } = at
  const fix = `set ${portVariable} to a free port${at.otherwise ? `, ${at.otherwise}` : ''}`
  switch (error.code) {
    case 'EADDRINUSE':
      return new Error(`${portVariable} ${port} is already in use on ${host}: ${fix}.`)
    case 'EACCES':
      return new Error(`${portVariable} ${port} may not be used by this user on ${host}: ${fix}.`)
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new Error(
        `${hostVariable} "${host}" is not an address of this machine: set it to one, such as 127.0.0.1 or 0.0.0.0.`,
      )
    default:
      return new Error(
        `Cannot listen on ${host}:${port} (${hostVariable}, ${portVariable}): ${error.message}`,
      )
  }
}
