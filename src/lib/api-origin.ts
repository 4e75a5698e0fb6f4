/**
 * Where the API lives, in a module of its own so that code loaded before the API client (the
 * session, which revokes its token at Logout) can reach it without loading zod.
 */

/** Origin of the API and uploads; empty = the PWA's own origin. */
export const API_ORIGIN = (import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '')
export const API_BASE = `${API_ORIGIN}/api/admin`
