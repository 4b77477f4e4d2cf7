import type { Catalog } from './catalog.js'

/** `GET /properties/{id}/metadata`: the dimensions and metrics core reports accept. */
export function metadataJson(catalog: Catalog) {
  return {
    name: `properties/${catalog.profile.id}/metadata`,
    dimensions: [...catalog.dimensions.values()].map((d) => ({
      apiName: d.apiName,
      uiName: d.uiName,
      description: d.description,
      ...(d.customDefinition && { customDefinition: true }),
      category: d.category,
    })),
    metrics: [...catalog.metrics.values()].map((m) => ({
      apiName: m.apiName,
      uiName: m.uiName,
      description: m.description,
      type: m.type,
      ...(m.expression && { expression: m.expression }),
      category: m.category,
    })),
  }
}
