import { ResendData, listNotification } from '#contract/promotions'
import { call } from '#src/lib/api.ts'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached promotions in the palette, each with Resend promotion as an action. */
export const promotions = recordReader(listNotification, (answer) =>
  answer.result.map((p) => ({
    id: p._id,
    label: p.title,
    detail: `Messaging, ${p.sent} of ${p.total} sent`,
    href: withSearch('/notificationlist', p.title),
    // Resend to everyone, as the list's plain Resend; `round` makes a repeat start nothing.
    actions: [
      {
        label: 'Resend promotion',
        run: async () => {
          const resent = await call(ResendData, { id: p._id, round: p.round, only: 'all' })
          if (resent.awaitingApproval) return { message: `${p.title}: ${resent.message}` }
          return { message: resent.started ? `${p.title}: resending to ${resent.total}` : `${p.title} is already being resent` }
        },
      },
    ],
  })),
)
