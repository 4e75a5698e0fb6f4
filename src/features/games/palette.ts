import { FreezeCms, listCms } from '#contract/games'
import { call } from '#src/lib/api.ts'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** Cached games in the palette, each with Freeze or UnFreeze as an action. */
export const games = recordReader(listCms, (answer) =>
  answer.result.map((g) => ({
    id: g._id,
    label: g.title,
    detail: `${g.categoryName.categoryName}, Game ID ${g._id}`,
    href: withSearch('/cms', g.title),
    actions: [
      {
        label: g.freeze ? 'UnFreeze game' : 'Freeze game',
        run: async () => {
          const frozen = await call(FreezeCms, { id: g._id })
          // The list's Freeze offers Undo; so does this one (the same answer, the same ticket).
          return { message: frozen.freeze ? `${g.title} is frozen` : `${g.title} is unfrozen`, undo: frozen.undo }
        },
      },
    ],
  })),
)
