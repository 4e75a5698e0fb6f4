import { declareScreens, lazyScreen, paletteRecords, withSearch } from '#src/crud/screens.ts'

const forms = () => import('./game-form.tsx')

/** Games (spec section 2) with Add Games and Edit Games. */
export const screens = declareScreens([
  {
    path: '/cms',
    kind: 'page',
    component: lazyScreen(() => import('./game-list.tsx'), 'GameListPage'),
    records: paletteRecords('Games', async () => (await import('#contract/games')).listCms, (answer) =>
      answer.result.map((g) => ({
        id: g._id,
        label: g.title,
        detail: `${g.categoryName.categoryName}, Game ID ${g._id}`,
        href: withSearch('/cms', g.title),
        actions: [
          {
            label: g.freeze ? 'UnFreeze game' : 'Freeze game',
            run: async () => {
              const [{ FreezeCms }, { call }] = await Promise.all([import('#contract/games'), import('#src/lib/api.ts')])
              const answer = await call(FreezeCms, { id: g._id })
              // The list's Freeze offers Undo; so does this one (the same answer, the same ticket).
              return { message: answer.freeze ? `${g.title} is frozen` : `${g.title} is unfrozen`, undo: answer.undo }
            },
          },
        ],
      })),
    ),
  },
  { path: '/add-cms', kind: 'action', component: lazyScreen(forms, 'AddGamePage') },
  { path: '/edit-cms', kind: 'record', component: lazyScreen(forms, 'EditGamePage') },
])
