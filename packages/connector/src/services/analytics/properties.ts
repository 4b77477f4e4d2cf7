import { z } from 'zod'
import type { ProviderRead } from '../definition.js'

/**
 * The person's accounts and properties, as the analytics Admin API lists them
 * (`accountSummaries.list`). No tool exposes it: the connector reads it itself, to offer the
 * properties when the person chooses what a grant covers, and to name the grant's properties to
 * the model in the tools' schemas and refusals (src/mcp/grant-listing.ts).
 */

/** The generic provider's read of the person's account summaries ("upstream only, no tool"). */
export const listAccountSummaries: ProviderRead = {
  service: 'analytics',
  name: 'list_account_summaries',
  method: 'GET',
  path: '/accountSummaries',
}

/** The Admin API's answer, loosely: what is read is named, and nothing else is lost. */
export const accountSummaries = z.looseObject({
  accountSummaries: z
    .array(
      z.looseObject({
        account: z.string(),
        displayName: z.string().optional(),
        propertySummaries: z
          .array(
            z.looseObject({
              property: z.string(),
              displayName: z.string().optional(),
              propertyType: z.string().optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
  nextPageToken: z.string().optional(),
})
