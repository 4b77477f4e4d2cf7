import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'

/** Counts the rows that INSERT, UPDATE and DELETE statements change: "rows written". */
export class RowCounter implements KyselyPlugin {
  written = 0

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const changed = args.result.numAffectedRows
    if (changed !== undefined) this.written += Number(changed)
    return args.result
  }

  reset(): void {
    this.written = 0
  }
}
