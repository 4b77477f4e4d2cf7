import type { Catalog } from './catalog.js'

/**
 * `GET /properties/{id}/metadata`: the dimensions and metrics core reports accept, in the real
 * API's field order. As there, fields at their default are left out: no `customDefinition: false`
 * and no empty lists.
 */
export function metadataJson(catalog: Catalog) {
  const { dimensions, metrics } = catalog.listed
  return {
    name: `properties/${catalog.profile.id}/metadata`,
    dimensions: dimensions.map((d) => ({
      apiName: d.apiName,
      uiName: d.uiName,
      description: d.description,
      ...(d.deprecatedApiNames?.length && { deprecatedApiNames: d.deprecatedApiNames }),
      ...(d.customDefinition && { customDefinition: true }),
      category: d.category,
    })),
    metrics: metrics.map((m) => ({
      apiName: m.apiName,
      uiName: m.uiName,
      description: m.description,
      ...(m.deprecatedApiNames?.length && { deprecatedApiNames: m.deprecatedApiNames }),
      type: m.type,
      ...(m.customDefinition && { customDefinition: true }),
      ...(m.blockedReasons?.length && { blockedReasons: m.blockedReasons }),
      category: m.category,
    })),
  }
}
