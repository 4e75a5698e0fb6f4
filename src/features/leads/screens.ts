import { declareScreens, lazyScreen, paletteRecords, withSearch } from '#src/crud/screens.ts'

export const screens = declareScreens([
  {
    path: '/users',
    kind: 'page',
    component: lazyScreen(() => import('./leads-page.tsx'), 'LeadsPage'),
    records: paletteRecords('Leads', async () => (await import('#contract/leads')).getuser, (answer) =>
      answer.data.map((lead) => ({ id: lead._id, label: lead.email, detail: lead.name, href: `/lead?id=${encodeURIComponent(lead._id)}` })),
    ),
  },
  { path: '/lead', kind: 'view', component: lazyScreen(() => import('./lead-page.tsx'), 'LeadPage') },
  {
    path: '/contactus',
    kind: 'page',
    component: lazyScreen(() => import('./contact-page.tsx'), 'ContactPage'),
    records: paletteRecords('Contact Us', async () => (await import('#contract/leads')).getContactUS, (answer) =>
      answer.result.map((c) => ({ id: c._id, label: c.email, detail: c.name, href: withSearch('/contactus', c.email) })),
    ),
  },
])
