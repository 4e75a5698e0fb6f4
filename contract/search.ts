import { z } from 'zod/mini'
import { ok } from './common.ts'
import { endpoint, nameEndpoints, sessionAccess } from './define.ts'
import * as self from './search.ts'

/** Said when the palette's query is shorter than a server search is worth. */
export const QUERY_TOO_SHORT = 'Type at least 2 characters'
/** The longest query searched: a palette query, not a document. */
export const MAX_QUERY = 100
/** Records answered per kind: the palette shows a few per group. */
export const FOUND_PER_KIND = 5

/**
 * One record the server found for the palette: the screen whose list holds it (the session may
 * open it), the palette's group heading, and where it opens.
 */
export const FoundRecord = z.object({
  screen: z.string(),
  heading: z.string(),
  id: z.string(),
  label: z.string(),
  detail: z.string(),
  /** Where the record opens: its own page, or its list searched for it. */
  href: z.string(),
})
export type FoundRecord = z.output<typeof FoundRecord>

/**
 * The palette's search of every area at once: leads (email, name, wallet address), games,
 * brands, staff, promotions, categories, the three kinds of link and contact enquiries, a few of
 * each, only from the screens this session may open.
 */
export const findRecords = endpoint({
  method: 'GET',
  input: z.object({ q: z.string().check(z.trim(), z.minLength(2, QUERY_TOO_SHORT), z.maxLength(MAX_QUERY, `Type at most ${MAX_QUERY} characters`)) }),
  output: ok({ result: z.array(FoundRecord) }),
  access: sessionAccess,
  ours: `Not in the requirements: the command palette's search of every list at once, ${FOUND_PER_KIND} records per kind at most, each from a screen the session may open.`,
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
