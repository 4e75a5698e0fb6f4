import { listHomePageCms } from '#contract/homepage'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached homepage content in the palette, opening its list on the one chosen. */
export const contents = recordReader(listHomePageCms, (answer) =>
  answer.result.map((c) => ({ id: c._id, label: c.title, detail: c.link, href: withSearch('/homepage-content', c.title) })),
)
