import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import { labelNames, type LabelNames, type MetricDeclaration } from './declared.js'

/** The prom-client objects of the declarations (declared.ts), each in its connector's registry. */

export const counterOf = <D extends MetricDeclaration>(declared: D, registry: Registry) =>
  new Counter<LabelNames<D>>(basics(declared, registry))

export const histogramOf = <D extends MetricDeclaration>(declared: D, registry: Registry) =>
  new Histogram<LabelNames<D>>({
    ...basics(declared, registry),
    ...(declared.buckets && { buckets: [...declared.buckets] }),
  })

export const gaugeOf = <D extends MetricDeclaration>(
  declared: D,
  registry: Registry,
  collect?: (this: Gauge<LabelNames<D>>) => void,
) => new Gauge<LabelNames<D>>({ ...basics(declared, registry), ...(collect && { collect }) })

const basics = <D extends MetricDeclaration>(declared: D, registry: Registry) => ({
  name: declared.name,
  help: declared.help,
  labelNames: labelNames(declared),
  registers: [registry],
})
