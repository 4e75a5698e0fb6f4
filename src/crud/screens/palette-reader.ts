/**
 * How an area's `palette.ts` turns the cached answers of one of its list endpoints into palette
 * records: the answer is parsed with the endpoint's schema first, and an answer that does not
 * parse (a cache written by an older version) gives no records rather than wrong ones. These
 * modules load when the palette opens (paletteRecords in src/crud/screens/screens.ts).
 */
import type { Endpoint, Output } from '#contract/define'
import type { PaletteReader, PaletteRecord } from './screens.ts'

export function recordReader<E extends Endpoint>(endpoint: E, pick: (answer: Output<E>) => PaletteRecord[]): PaletteReader {
  const output: E['output'] = endpoint.output
  return {
    endpointName: endpoint.name,
    records: (data) => {
      const answer = output.safeParse(data)
      return answer.success ? pick(answer.data) : []
    },
  }
}

/** `/users?search=ann`: a list opened on one record's search. */
export const withSearch = (path: string, search: string): string => `${path}?search=${encodeURIComponent(search)}`
