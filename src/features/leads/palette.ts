import { getContactUS, getuser } from '#contract/leads'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached leads in the palette, each opening its own page. */
export const leads = recordReader(getuser, (answer) =>
  answer.data.map((lead) => ({ id: lead._id, label: lead.email, detail: lead.name, href: `/lead?id=${encodeURIComponent(lead._id)}` })),
)

/** Cached contact enquiries in the palette, opening Contact Us on the one chosen. */
export const enquiries = recordReader(getContactUS, (answer) =>
  answer.result.map((c) => ({ id: c._id, label: c.email, detail: c.name, href: withSearch('/contactus', c.email) })),
)
