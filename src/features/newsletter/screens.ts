import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

export const screens = declareScreens([{ path: '/newsletter', kind: 'page', component: lazyScreen(() => import('./newsletter-page.tsx'), 'NewsletterPage') }])
