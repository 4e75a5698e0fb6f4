import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

const screensChunk = () => import('./link-screens.tsx')
const palette = () => import('./palette.ts')

/** Buy List, Swap out and Swap in (requirements R2.18), each with its Add page. */
export const screens = declareScreens([
  {
    path: '/buy_list',
    kind: 'page',
    component: lazyScreen(screensChunk, 'BuyListPage'),
    records: paletteRecords('Buy links', async () => (await palette()).buyLinks),
  },
  { path: '/add_buylink', kind: 'action', component: lazyScreen(screensChunk, 'AddBuyLinkPage') },
  {
    path: '/swapout_list',
    kind: 'page',
    component: lazyScreen(screensChunk, 'SwapOutListPage'),
    records: paletteRecords('Swap out links', async () => (await palette()).swapOutLinks),
  },
  { path: '/add_swapout', kind: 'action', component: lazyScreen(screensChunk, 'AddSwapOutPage') },
  {
    path: '/swapin_list',
    kind: 'page',
    component: lazyScreen(screensChunk, 'SwapInListPage'),
    records: paletteRecords('Swap in links', async () => (await palette()).swapInLinks),
  },
  { path: '/add_swapin', kind: 'action', component: lazyScreen(screensChunk, 'AddSwapInPage') },
])
