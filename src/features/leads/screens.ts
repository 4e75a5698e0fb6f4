import { declareScreens, lazyScreen, paletteRecords } from '#src/crud/screens/screens.ts'

export const screens = declareScreens([
  {
    path: '/users',
    kind: 'page',
    component: lazyScreen(() => import('./leads-page.tsx'), 'LeadsPage'),
    records: paletteRecords('Leads', async () => (await import('./palette.ts')).leads),
  },
  { path: '/lead', kind: 'view', component: lazyScreen(() => import('./lead-page.tsx'), 'LeadPage') },
  {
    path: '/contactus',
    kind: 'page',
    component: lazyScreen(() => import('./contact-page.tsx'), 'ContactPage'),
    records: paletteRecords('Contact Us', async () => (await import('./palette.ts')).enquiries),
  },
  { path: '/contactus-triage', kind: 'view', component: lazyScreen(() => import('./triage-page.tsx'), 'TriagePage') },
])
