import { ListBridgeLink, ListBuyLink, ListSelLink } from '#contract/links'
import { recordReader, withSearch } from '#src/crud/screens/palette-reader.ts'

/** A cached link as a palette record: the link itself, opening its list filtered on it. */
const record = (list: string, route: string) => (link: { _id: string; preference: number }, text: string) => ({
  id: link._id,
  label: text,
  detail: `${list}, preference ${link.preference}`,
  href: withSearch(route, text),
})
const buy = record('Buy List', '/buy_list')
const swapOut = record('Swap Out List', '/swapout_list')
const swapIn = record('Swap in List', '/swapin_list')

export const buyLinks = recordReader(ListBuyLink, (a) => a.result.map((l) => buy(l, l.buyLink)))
export const swapOutLinks = recordReader(ListSelLink, (a) => a.result.map((l) => swapOut(l, l.selLink)))
export const swapInLinks = recordReader(ListBridgeLink, (a) => a.result.map((l) => swapIn(l, l.bridgeLink)))
