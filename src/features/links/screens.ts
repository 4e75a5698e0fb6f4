import { declareScreens, lazyScreen, paletteRecords, withSearch } from '#src/crud/screens.ts'

const screensChunk = () => import('./link-screens.tsx')
const links = () => import('#contract/links')

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

/** Buy List, Swap out and Swap in (spec section 2), each with its Add page. */
export const screens = declareScreens([
  {
    path: '/buy_list',
    kind: 'page',
    component: lazyScreen(screensChunk, 'BuyListPage'),
    records: paletteRecords('Buy links', async () => (await links()).ListBuyLink, (a) => a.result.map((l) => buy(l, l.buyLink))),
  },
  { path: '/add_buylink', kind: 'action', component: lazyScreen(screensChunk, 'AddBuyLinkPage') },
  {
    path: '/swapout_list',
    kind: 'page',
    component: lazyScreen(screensChunk, 'SwapOutListPage'),
    records: paletteRecords('Swap out links', async () => (await links()).ListSelLink, (a) => a.result.map((l) => swapOut(l, l.selLink))),
  },
  { path: '/add_swapout', kind: 'action', component: lazyScreen(screensChunk, 'AddSwapOutPage') },
  {
    path: '/swapin_list',
    kind: 'page',
    component: lazyScreen(screensChunk, 'SwapInListPage'),
    records: paletteRecords('Swap in links', async () => (await links()).ListBridgeLink, (a) => a.result.map((l) => swapIn(l, l.bridgeLink))),
  },
  { path: '/add_swapin', kind: 'action', component: lazyScreen(screensChunk, 'AddSwapInPage') },
])
