import { listCategory } from '#contract/catalog'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached categories in the palette, opening the list on the one chosen. */
export const categories = recordReader(listCategory, (answer) =>
  answer.result.map((c) => ({ id: c._id, label: c.categoryName, detail: `Category ID ${c._id}`, href: withSearch('/category', c.categoryName) })),
)
