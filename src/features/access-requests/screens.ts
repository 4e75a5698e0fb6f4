import { declareAuthScreens, lazyScreen } from '#src/crud/screens/screens.ts'

/** /register: a request for access that a superadmin approves (Users and Access), not a sign-up. */
export const authScreens = declareAuthScreens([
  { path: '/register', component: lazyScreen(() => import('./register-page.tsx'), 'RegisterPage') },
])
