/**
 * Records the palette offers from the data already in the cache (DESIGN.md: "records already in
 * the cache ... so it works offline too"). One row per list endpoint: where its records come
 * from, how one is labelled, and where choosing it goes. A row is parsed with the endpoint's
 * schema before use, as everything read from storage is.
 */
import { z } from 'zod'
import type { Endpoint, Output } from '#contract/define'
import { getuser, getContactUS } from '#contract/leads'
import { listCategory } from '#contract/catalog'

export interface PaletteRecord {
  id: string
  label: string
  detail: string
  /** Path (with query) to open; the lists keep their search in the URL. */
  href: string
}

export interface PaletteSource {
  heading: string
  /** The screen the records belong to: the session must be allowed to open it. */
  route: string
  endpointName: string
  records: (data: unknown) => PaletteRecord[]
}

function source<E extends Endpoint>(
  heading: string,
  route: string,
  endpoint: E,
  pick: (answer: Output<E>) => PaletteRecord[],
): PaletteSource {
  const output: E['output'] = endpoint.output
  return {
    heading,
    route,
    endpointName: endpoint.name,
    records: (data) => {
      const answer = z.safeParse(output, data)
      return answer.success ? pick(answer.data) : []
    },
  }
}

const withSearch = (path: string, search: string): string => `${path}?search=${encodeURIComponent(search)}`

export const paletteSources: readonly PaletteSource[] = [
  source('Leads', '/users', getuser, (a) =>
    a.data.map((lead) => ({ id: lead._id, label: lead.email, detail: lead.name, href: withSearch('/users', lead.email) })),
  ),
  source('Contact Us', '/contactus', getContactUS, (a) =>
    a.result.map((c) => ({ id: c._id, label: c.email, detail: c.name, href: withSearch('/contactus', c.email) })),
  ),
  source('Categories', '/category', listCategory, (a) =>
    a.result.map((c) => ({ id: c._id, label: c.categoryName, detail: `Category ID ${c._id}`, href: withSearch('/category', c.categoryName) })),
  ),
]
