/**
 * The stored session token (requirements R3.17: local storage `admin_token`, prefixed 'Bearer ').
 * Kept apart from the session hook so that the API client can read and clear it without
 * depending on the app layer.
 */
export const TOKEN_KEY = 'admin_token'
const PREFIX = 'Bearer '

type Listener = () => void
const listeners = new Set<Listener>()

function safeStorage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    // Storage can be disabled (privacy settings); the app then behaves as signed out.
    return null
  }
}

/** The stored value as sent in the Authorization header ('Bearer <jwt>'), or null. */
export function readAuthorization(): string | null {
  const value = safeStorage()?.getItem(TOKEN_KEY) ?? null
  return value && value.startsWith(PREFIX) && value.length > PREFIX.length ? value : null
}

/** Stores a raw JWT from the login answer, with the prefix of requirements R3.17. */
export function storeToken(rawJwt: string): void {
  safeStorage()?.setItem(TOKEN_KEY, PREFIX + rawJwt)
  emit()
}

export function clearToken(): void {
  const storage = safeStorage()
  if (storage?.getItem(TOKEN_KEY) === null) return
  storage?.removeItem(TOKEN_KEY)
  emit()
}

/** Called on every change of the token, including changes made by another tab. */
export function subscribeToken(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

function emit(): void {
  for (const listener of listeners) listener()
}

// A logout (or login) in another tab changes the same storage: follow it here too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === TOKEN_KEY || event.key === null) emit()
  })
}
