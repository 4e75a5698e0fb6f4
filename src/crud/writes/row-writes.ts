/**
 * Each list write (delete, toggle, bulk action) maps a row, or the selected ids, to the payload
 * its own call wants: `{ id }`, `{ _id }`, `{ deleteData: ids }`... The mapping is checked by the
 * compiler in the screen's definition; here it is bound to its endpoint once, so the page only
 * ever holds "the call to make for this row", and tests can read the payload it will send.
 */
import { call } from '#src/lib/api.ts'
import type { BoundCall, BulkDef, BulkModel, RemoveDef, Row, RowActionDef, RowActionModel, ToggleDef, ToggleModel, WriteEndpoint } from '../list/list-types.ts'

export type { BoundCall } from '../list/list-types.ts'

/** Binds an input to its endpoint while both are still typed together. */
export function bind<I>(endpoint: WriteEndpoint<I>, input: I): BoundCall {
  return { endpoint, input, send: () => call(endpoint, input) }
}

/** The delete call for a row: `{ id }` by default, else the definition's own payload. */
export function removeRequest<R extends Row, I>(def: RemoveDef<R, I>): (row: R) => BoundCall {
  return (row) => (def.payload === undefined ? bind(def.endpoint, { id: row._id }) : bind(def.endpoint, def.payload(row)))
}

export function toggleModel<R extends Row, I>(def: ToggleDef<R, I>): ToggleModel<R> {
  const { endpoint, payload, ...shown } = def
  return { ...shown, request: (row) => bind(endpoint, payload(row)) }
}

export function bulkModel<I>(def: BulkDef<I>): BulkModel {
  return { label: def.label, confirm: def.confirm, request: (ids) => bind(def.endpoint, def.payload(ids)) }
}

/** A row action with each choice bound to its call; choices a row does not allow are left out. */
export function rowActionModel<R extends Row, I>(def: RowActionDef<R, I>): RowActionModel<R> {
  const { endpoint, choices, afterSuccess, ...shown } = def
  const request = (row: R, input: I): BoundCall => {
    const bound = bind(endpoint, input)
    if (afterSuccess === undefined) return bound
    return {
      ...bound,
      send: async () => {
        const answer = await bound.send()
        afterSuccess(row)
        return answer
      },
    }
  }
  return {
    ...shown,
    choices: (row) => choices.filter((c) => c.when?.(row) ?? true).map((c) => ({ label: c.label, request: request(row, c.payload(row)) })),
  }
}
