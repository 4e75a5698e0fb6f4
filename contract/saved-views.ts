import { z } from 'zod/mini'
import { Id, ok, required } from './common.ts'
import { endpoint, nameEndpoints, sessionAccess } from './define.ts'
import { Deleted } from './undo.ts'
import * as self from './saved-views.ts'

/*
 * Saved views (ours): a list's filters, search and page size under a name, per admin,
 * kept on the server; listed in the list's header and in the palette, readable offline like the
 * lists. Each admin reads and changes only their own.
 */

export const SavedView = z.object({ _id: z.string(), route: z.string(), name: z.string(), query: z.string() })
export type SavedView = z.output<typeof SavedView>

/** Views per admin and list: enough for real use, and a bound on what one admin can store. */
export const MAX_VIEWS_PER_LIST = 20

export const listSavedViews = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ result: z.array(SavedView) }),
  access: sessionAccess,
  ours: "The signed-in admin's saved views, of screens they may open.",
})

export const VIEW_NAME_TAKEN = 'A view with this name already exists for this list'

export const saveView = endpoint({
  logAs: 'View saved',
  method: 'POST',
  input: z.object({
    route: z.string().check(z.trim(), z.minLength(1, 'route is required'), z.maxLength(100, 'Incorrect format')),
    name: required('Name is required', 60),
    /** The list's URL query: '' or starting with '?'. */
    query: z.string().check(z.maxLength(1000, 'Incorrect format'), z.regex(/^(\?[^#\s]*)?$/, 'Incorrect format')),
  }),
  output: ok({ id: z.string() }),
  access: sessionAccess,
  ours: `A name already used for that list is refused ('${VIEW_NAME_TAKEN}'); at most ${MAX_VIEWS_PER_LIST} views per list.`,
})

export const deleteView = endpoint({
  logAs: 'Saved view deleted',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Deleted,
  access: sessionAccess,
  ours: "Deletes one of the signed-in admin's views (undoable); another admin's answers 404.",
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
