import { listbrand } from '#contract/brands'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached brands in the palette, opening the Brand List on the one chosen. */
export const brands = recordReader(listbrand, (answer) =>
  answer.result.map((b) => ({ id: b._id, label: b.brandname, detail: `Brand, ${b.type}`, href: withSearch('/brand', b.brandname) })),
)
