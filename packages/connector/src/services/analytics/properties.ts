import { z } from 'zod'
import type { Narrowing } from '../definition.js'

/**
 * The person's accounts and properties, as the analytics Admin API lists them
 * (`accountSummaries.list`), and as list_properties gives them to a model: each account by
 * name with its properties, each by display name and the number `propertiesId` takes. A
 * property's parent and an ordinary property's type, which Google repeats on every one, are left
 * out; a subproperty or a roll-up says so.
 */

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

type Summaries = z.output<typeof accountSummaries>

export const propertyList = z
  .strictObject({
    accounts: z
      .array(
        z.strictObject({
          account: z.string().describe('accounts/N'),
          displayName: z.string(),
          properties: z.array(
            z.strictObject({
              propertiesId: z.string().describe('What propertiesId takes in the other tools.'),
              displayName: z.string(),
              kind: z
                .enum(['subproperty', 'roll-up'])
                .optional()
                .describe('Only for a property that is not an ordinary one.'),
            }),
          ),
        }),
      )
      .describe('Each account with the properties this connection may use.'),
    nextPageToken: z
      .string()
      .optional()
      .describe('More accounts: call again with it as pageToken.'),
  })
  .describe('The person’s accounts and properties.')

const KINDS: Record<string, 'subproperty' | 'roll-up'> = {
  PROPERTY_TYPE_SUBPROPERTY: 'subproperty',
  PROPERTY_TYPE_ROLLUP: 'roll-up',
}

/** list_properties' result from the Admin API's answer. */
export function propertyListOf(answer: Summaries): z.output<typeof propertyList> {
  return {
    accounts: (answer.accountSummaries ?? []).map((summary) => ({
      account: summary.account,
      displayName: summary.displayName ?? summary.account,
      properties: (summary.propertySummaries ?? []).map((property) => {
        const kind = property.propertyType ? KINDS[property.propertyType] : undefined
        return {
          propertiesId: property.property.replace(/^properties\//, ''),
          displayName: property.displayName ?? property.property,
          ...(kind && { kind }),
        }
      }),
    })),
    ...(answer.nextPageToken && { nextPageToken: answer.nextPageToken }),
  }
}

/**
 * The answer with only the properties a grant covers (each by `properties/N`), and only the
 * accounts left with one.
 */
export const narrowSummaries: Narrowing = (answer, covered) => {
  const { accountSummaries: accounts, ...rest } = answer as Summaries
  const kept = (accounts ?? []).flatMap((account) => {
    const properties = (account.propertySummaries ?? []).filter((p) => covered(p.property))
    return properties.length ? [{ ...account, propertySummaries: properties }] : []
  })
  return { ...rest, accountSummaries: kept }
}
