import { z } from 'zod'

/**
 * A flat input object: unknown fields are refused by name, with the fields the tool takes, so a
 * model that guessed a name (or sent a read-only field such as `position`) learns what to send.
 */
export function toolInput<Shape extends z.ZodRawShape>(tool: string, shape: Shape) {
  const fields = Object.keys(shape)
    .map((name) => `"${name}"`)
    .join(', ')
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') {
        const names = issue.keys.map((key) => `"${key.slice(0, 40)}"`).join(', ')
        const them = issue.keys.length > 1 ? 'them' : 'it'
        return `${tool} does not take ${names}: remove ${them}. It takes ${fields}`
      }
      if (issue.code === 'invalid_type')
        return `the arguments of ${tool} must be an object with ${fields}`
      return undefined
    },
  })
}
