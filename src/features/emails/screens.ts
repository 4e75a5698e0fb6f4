import { declareScreens, lazyScreen, paletteRecords, withSearch } from '#src/crud/screens.ts'

/** Automated Emails (spec section 2): the templates of the server's mails, edited in a modal. */
export const screens = declareScreens([
  {
    path: '/emailtemplates',
    kind: 'page',
    component: lazyScreen(() => import('./email-templates-page.tsx'), 'EmailTemplatesPage'),
    records: paletteRecords('Automated Emails', async () => (await import('#contract/emails')).getemail, (answer) =>
      answer.result.map((t) => ({ id: t.id, label: t.subject, detail: `Automated email, ${t.identifier}`, href: withSearch('/emailtemplates', t.subject) })),
    ),
  },
])
