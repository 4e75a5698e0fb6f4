import { getemail } from '#contract/emails'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached templates in the palette, opening Automated Emails on the one chosen. */
export const templates = recordReader(getemail, (answer) =>
  answer.result.map((t) => ({ id: t.id, label: t.subject, detail: `Automated email, ${t.identifier}`, href: withSearch('/emailtemplates', t.subject) })),
)
