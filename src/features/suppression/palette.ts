import { listSuppressedAddresses } from '#contract/suppression'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached suppressed addresses in the palette, opening the list on the one chosen. */
export const suppressed = recordReader(listSuppressedAddresses, (answer) =>
  answer.result.map((s) => ({ id: s._id, label: s.address, detail: `Suppressed, ${s.reason}`, href: withSearch('/suppressed-addresses', s.address) })),
)
