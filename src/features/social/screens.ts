import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

export const screens = declareScreens([{ path: '/social-links', kind: 'page', component: lazyScreen(() => import('./social-links-page.tsx'), 'SocialLinksPage') }])
