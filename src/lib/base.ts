/** The router base: the spec's base path /admin, as Vite was told at build (`base: '/admin/'`). */
export const BASE = import.meta.env.BASE_URL.replace(/\/+$/, '')

/** Where a signed-in admin lands (spec section 4). */
export const HOME = '/users'
