/**
 * The games area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as games from '#contract/games'
import { defineSamples, unique, png } from '../../testing/sample-kit.ts'

export const samples = defineSamples([games], {
  addcms: (f) => ({
    form: { fields: { title: `Game ${unique()}`, description: 'A game', categoryName: f.gameIds.categoryId, operatingsystem: 'Android', liveLink: 'https://play.example/new', isGameBackend: 'true' }, files: [png()] },
  }),
  listCms: (f) => ({ json: { page: 1, limit: 10, search: '', category: f.gameIds.categoryId, operatingsystem: '', sortBy: 'categoryName' } }),
  getCms: (f) => ({ json: { _id: f.gameIds.kept } }),
  Editcms: (f) => ({
    form: {
      fields: { _id: f.gameIds.kept, preference: '1', title: `Edited ${unique()}`, description: 'A game', categoryName: JSON.stringify({ _id: f.gameIds.categoryId }), operatingsystem: 'ios', liveLink: 'https://play.example/edited', isGameBackend: 'false' },
      files: [],
    },
  }),
  DeleteCms: (f) => ({ json: { id: f.gameIds.deleted } }),
  FreezeCms: (f) => ({ json: { id: f.gameIds.kept } }),
})
