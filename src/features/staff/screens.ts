import { declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'
import { managesStaff } from './access.ts'

export const screens = declareScreens([
  { path: '/sub-admin', kind: 'page', component: lazyScreen(() => import('./users-and-access-page.tsx'), 'UsersAndAccessPage') },
  { path: '/add-subAdmin', kind: 'action', component: lazyScreen(() => import('./staff-form.tsx'), 'CreateStaffPage'), writeRule: managesStaff },
  { path: '/edit-subAdmin', kind: 'record', component: lazyScreen(() => import('./edit-user-page.tsx'), 'EditUserPage'), writeRule: managesStaff },
])
