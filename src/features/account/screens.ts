import { declareAuthScreens, declareScreens, lazyScreen } from '#src/crud/screens/screens.ts'

export const screens = declareScreens([
  { path: '/profile', kind: 'page', component: lazyScreen(() => import('./profile-page.tsx'), 'ProfilePage') },
  { path: '/resetpassword', kind: 'page', component: lazyScreen(() => import('./reset-password-page.tsx'), 'ResetPasswordPage') },
])

export const authScreens = declareAuthScreens([
  { path: '/forgot', component: lazyScreen(() => import('./forgot-page.tsx'), 'ForgotPage') },
])
