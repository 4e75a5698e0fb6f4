import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

/** Automated Emails (requirements R2.21): the templates of the server's mails, edited in a modal. */
export const screens = declareScreens([
  {
    path: '/emailtemplates',
    kind: 'page',
    component: lazyScreen(() => import('./email-templates-page.tsx'), 'EmailTemplatesPage'),
    records: paletteRecords('Automated Emails', async () => (await import('./palette.ts')).templates),
  },
])
