/**
 * A read by one SQL text, prepared once by the engine and run by its own driver: `$1`, `$2`...
 * in the text take the values in order. Its one row, or undefined.
 */
export type PreparedRead<Row> = (...values: (string | number)[]) => Promise<Row | undefined>
