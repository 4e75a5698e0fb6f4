import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getSession, loadSessionDecoder, login, logout, onSessionEnd } from './session.ts'
import { TOKEN_KEY } from './token.ts'
import { ACTIVITY_KEY } from './activity.ts'
import { VIEW_AS_KEY, keepViewAs } from './view-as.ts'

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const jwt = (claims: Record<string, unknown>) => `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(claims)}.signature`
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600

const subadmin = {
  _id: 'a1',
  email: 'staff@example.com',
  role: 'subadmin',
  accessLevel: 'View Only',
  restrictions: ['/users', '/category'],
  exp: inAnHour(),
}

let data: Map<string, string>
beforeEach(async () => {
  data = new Map()
  vi.stubGlobal('window', {
    localStorage: {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    },
    addEventListener: () => {},
  })
  vi.stubGlobal('atob', (s: string) => Buffer.from(s, 'base64').toString('binary'))
  await loadSessionDecoder()
})
afterEach(() => {
  logout()
  vi.unstubAllGlobals()
})

describe('session', () => {
  it('decodes the stored token into the signed-in state (requirements R4.2)', async () => {
    const session = await login(jwt(subadmin))
    expect(data.get(TOKEN_KEY)).toBe(`Bearer ${jwt(subadmin)}`)
    expect(session).toMatchObject({ isAuth: true, userId: 'a1', email: 'staff@example.com', role: 'subadmin', accessLevel: 'View Only', canWrite: false })
  })

  it('opens only the routes in the restrictions, plus Profile and Reset Password (requirements R2.4, R5.13)', async () => {
    const session = await login(jwt(subadmin))
    expect(session.mayOpen('/users')).toBe(true)
    expect(session.mayOpen('/category')).toBe(true)
    expect(session.mayOpen('/cms')).toBe(false)
    expect(session.mayOpen('/profile')).toBe(true)
  })

  it('opens every route with empty restrictions, and for the superadmin; Admin level may write', async () => {
    expect((await login(jwt({ ...subadmin, restrictions: [] }))).mayOpen('/cms')).toBe(true)
    const root = await login(jwt({ ...subadmin, role: 'superadmin', accessLevel: 'Admin', restrictions: ['/users'] }))
    expect(root.mayOpen('/sub-admin')).toBe(true)
    expect(root.canWrite).toBe(true)
  })

  it('drops an expired or malformed token and counts as signed out', async () => {
    expect((await login(jwt({ ...subadmin, exp: Math.floor(Date.now() / 1000) - 5 }))).isAuth).toBe(false)
    expect(data.has(TOKEN_KEY)).toBe(false)
    expect((await login(jwt({ ...subadmin, role: 'owner' }))).isAuth).toBe(false)
    expect((await login('not-a-jwt')).isAuth).toBe(false)
  })

  it('keys the scope by admin and permissions, and reports the end of a session', async () => {
    const first = await login(jwt(subadmin))
    expect(getSession().scope).toBe(first.scope)
    const widened = await login(jwt({ ...subadmin, restrictions: ['/users', '/category', '/cms'] }))
    expect(widened.scope).not.toBe(first.scope)

    const ended = vi.fn()
    const stop = onSessionEnd(ended)
    logout()
    expect(ended).toHaveBeenCalledTimes(1)
    expect(ended.mock.calls[0]?.[0]).toMatchObject({ userId: 'a1' })
    expect(getSession().isAuth).toBe(false)
    stop()
  })

  it('Logout asks the server to revoke the token, and forgets it even when that fails', async () => {
    const sent: Array<{ url: string; init: RequestInit | undefined }> = []
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      sent.push({ url, init })
      return Promise.reject(new TypeError('offline'))
    })
    await login(jwt(subadmin))
    logout()
    expect(data.has(TOKEN_KEY)).toBe(false)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.url).toMatch(/\/api\/admin\/logout$/)
    expect(sent[0]?.init).toMatchObject({ method: 'POST', keepalive: true, headers: { Authorization: `Bearer ${jwt(subadmin)}` } })
  })

  it('reads the idle time from the token, and drops a stored token whose session went idle', async () => {
    const session = await login(jwt({ ...subadmin, idle: 1800 }))
    expect(session.idleSeconds).toBe(1800)
    // Login counts as activity: a session from before is not held against this one.
    expect(Number(data.get(ACTIVITY_KEY))).toBeGreaterThan(Date.now() - 5000)
    // The browser comes back after 31 minutes with the same token stored (a new page: fresh modules).
    data.set(ACTIVITY_KEY, String(Date.now() - 31 * 60_000))
    vi.resetModules()
    const reopened = await import('./session.ts')
    await reopened.loadSessionDecoder()
    expect(reopened.getSession().isAuth).toBe(false)
    expect(data.has(TOKEN_KEY)).toBe(false)
    // Within the idle time, the same token opens the session.
    data.set(ACTIVITY_KEY, String(Date.now() - 29 * 60_000))
    data.set(TOKEN_KEY, `Bearer ${jwt({ ...subadmin, idle: 1800 })}`)
    vi.resetModules()
    const again = await import('./session.ts')
    await again.loadSessionDecoder()
    expect(again.getSession().isAuth).toBe(true)
  })
})

describe('View as', () => {
  const root = { _id: 'root', email: 'root@example.com', role: 'superadmin', accessLevel: 'Admin', restrictions: [], exp: inAnHour() }
  const member = { _id: 'm1', name: 'Vera', email: 'vera@example.com', role: 'subadmin' as const, accessLevel: 'View Only' as const, restrictions: ['/users'] }

  it("takes the member's access for the menu and the guard, offers no write, and keeps the offline copy apart", async () => {
    const own = await login(jwt(root))
    keepViewAs(member, 'Super Admin')
    const viewing = getSession()
    expect(viewing).toMatchObject({ userId: 'm1', role: 'subadmin', accessLevel: 'View Only', canWrite: false, viewAs: { name: 'Vera', accessLevel: 'View Only' }, signedInSuperadmin: true })
    expect(viewing.mayOpen('/users')).toBe(true)
    expect(viewing.mayOpen('/sub-admin')).toBe(false)
    expect(viewing.scope).not.toBe(own.scope)
    keepViewAs(null)
    expect(getSession()).toMatchObject({ userId: 'root', canWrite: true, viewAs: null, scope: own.scope })
  })

  it("is ignored under another token, and under a token that is not the superadmin's", async () => {
    await login(jwt(root))
    keepViewAs(member, 'Super Admin')
    await login(jwt({ ...root, exp: inAnHour() + 60 }))
    expect(getSession()).toMatchObject({ userId: 'root', viewAs: null })
    await login(jwt(subadmin))
    keepViewAs(member, 'Super Admin')
    expect(getSession()).toMatchObject({ userId: 'a1', viewAs: null, signedInSuperadmin: false })
  })

  it('is forgotten at logout', async () => {
    await login(jwt(root))
    keepViewAs(member, 'Super Admin')
    logout()
    expect(data.get(VIEW_AS_KEY)).toBeUndefined()
  })
})
