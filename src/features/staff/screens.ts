import { declareScreens, lazyScreen } from '#src/crud/screens.ts'
import { managesStaff } from './access.ts'

export const screens = declareScreens([
  { path: '/sub-admin', kind: 'page', component: lazyScreen(() => import('./staff-list.tsx'), 'StaffListPage') },
  { path: '/add-subAdmin', kind: 'action', component: lazyScreen(() => import('./staff-form.tsx'), 'CreateStaffPage'), writeRule: managesStaff },
  { path: '/edit-subAdmin', kind: 'record', component: lazyScreen(() => import('./staff-form.tsx'), 'EditStaffPage'), writeRule: managesStaff },
])
