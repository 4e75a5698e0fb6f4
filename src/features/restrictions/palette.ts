import { FetchRestrictions } from '#contract/restrictions'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached restricted countries in the palette, opening the Restriction List on the one chosen. */
export const countries = recordReader(FetchRestrictions, (answer) =>
  (answer.result[0]?.Restrictedcountry ?? []).map((c) => ({
    id: c._id,
    label: c.country,
    detail: c.hide ? 'Restriction List, hidden' : 'Restriction List',
    href: withSearch('/restriction', c.country),
  })),
)
