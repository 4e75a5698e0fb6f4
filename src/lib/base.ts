/** The router base: the base path /admin of requirements R9.8, as Vite was told at build (`base: '/admin/'`). */
export const BASE = import.meta.env.BASE_URL.replace(/\/+$/, '')

/** Where a signed-in admin lands (requirements R4.1). */
export const HOME = '/users'
