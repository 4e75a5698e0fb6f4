import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { getuser } from '#contract/leads'
import { ACTIVITY_KEY } from './activity.ts'
import { call } from './api.ts'
import {
  EARLY_CALLS_TTL_MS,
  MAX_CALLS,
  MAX_PAGES,
  MAX_SCRIPTS,
  forgetFirstCalls,
  noteCall,
  noteFirstCalls,
  saveFirstCalls,
  startEarlyCalls,
  takeEarlyCall,
} from './early-calls.ts'
import { BASE } from './base.ts'
import { FIRST_CALLS_KEY } from './offline-store.ts'
import { memoryStorage } from '../testing/memory-storage.ts'
import { TOKEN_KEY } from './token.ts'

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
/** A token as the server signs it (the signature is the server's business, not read here). */
const tokenWith = (claims: Record<string, unknown>) => `Bearer ${base64url({ alg: 'HS256' })}.${base64url(claims)}.c2ln`
const NOW = 1_800_000_000_000
const LIVE = tokenWith({ _id: 'a1', exp: NOW / 1000 + 3600, idle: 1800 })

const ROWS = '/api/admin/getuser?page=1&limit=50'
const INFO = '/api/admin/public-info'
const page = (status = 'success') => new Response(JSON.stringify({ status, message: 'Users fetched', data: [], count: 0 }), { headers: { 'Content-Type': 'application/json' } })

let storage: ReturnType<typeof memoryStorage>
let location: { pathname: string; search: string }
const fetchMock = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>()

beforeEach(() => {
  storage = memoryStorage()
  location = { pathname: '/admin/users', search: '' }
  vi.stubGlobal('window', { localStorage: storage, location, addEventListener: () => {} })
  vi.stubGlobal('navigator', { onLine: true })
  vi.stubGlobal('fetch', fetchMock)
  fetchMock.mockReset()
  fetchMock.mockImplementation(() => Promise.resolve(page()))
  forgetFirstCalls()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A visit of `at` that made `urls` first, noted and saved as main.tsx does. */
function visit(at: string, urls: readonly string[]) {
  noteFirstCalls(at)
  for (const url of urls) noteCall(url)
  saveFirstCalls(at)
}
const stored = () => JSON.parse(storage.getItem(FIRST_CALLS_KEY) ?? 'null') as unknown

describe('noting a page’s first calls', () => {
  it('keeps the API calls of the page the visit opened, each once', () => {
    storage.setItem(TOKEN_KEY, LIVE)
    visit('/admin/users', [INFO, ROWS, INFO, 'https://elsewhere.example/api/admin/x', '/uploads/a.png'])
    expect(stored()).toEqual({ '/admin/users': [INFO, ROWS] })
  })

  it(`keeps at most ${MAX_CALLS} calls per page and ${MAX_PAGES} pages, the oldest noted going first`, () => {
    storage.setItem(TOKEN_KEY, LIVE)
    visit('/admin/users', Array.from({ length: MAX_CALLS + 3 }, (_, i) => `/api/admin/getuser?page=${i + 1}`))
    expect((stored() as Record<string, string[]>)['/admin/users']).toHaveLength(MAX_CALLS)
    for (let i = 0; i < MAX_PAGES; i++) visit(`/admin/list-${i}`, [INFO])
    const pages = Object.keys(stored() as object)
    expect(pages).toHaveLength(MAX_PAGES)
    expect(pages).not.toContain('/admin/users')
    // Noted again, a page becomes the newest.
    visit('/admin/list-0', [ROWS])
    expect(Object.keys(stored() as object).at(-1)).toBe('/admin/list-0')
  })

  it('keeps the app scripts the visit loaded, but for those the document asks for itself', () => {
    storage.setItem(TOKEN_KEY, LIVE)
    const origin = 'https://office.example'
    Object.assign(location, { href: `${origin}${BASE}/users`, origin })
    vi.stubGlobal('document', { scripts: [{ src: `${origin}${BASE}/assets/early-calls-1a2b.js` }, { src: `${origin}${BASE}/assets/index-3c4d.js` }, { src: '' }] })
    const loaded = [
      `${origin}${BASE}/assets/index-3c4d.js`,
      `${origin}${BASE}/assets/early-calls-1a2b.js`,
      `${origin}${BASE}/assets/list-kit-5e6f.js`,
      `${origin}${BASE}/assets/index-7a8b.css`,
      `${origin}${BASE}/icon-192.png`,
      `https://elsewhere.example${BASE}/assets/other-9c0d.js`,
      `${origin}${ROWS}`,
      `${origin}${BASE}/assets/leads-page-1f2e.js`,
      `${origin}${BASE}/assets/list-kit-5e6f.js`,
      ...Array.from({ length: MAX_SCRIPTS + 5 }, (_, i) => `${origin}${BASE}/assets/chunk-${i}.js`),
    ]
    vi.stubGlobal('performance', { getEntriesByType: (type: string) => (type === 'resource' ? loaded.map((name) => ({ name })) : []) })
    visit('/admin/users', [ROWS])
    const urls = (stored() as Record<string, string[]>)['/admin/users'] ?? []
    expect(urls.slice(0, 3)).toEqual([ROWS, `${BASE}/assets/list-kit-5e6f.js`, `${BASE}/assets/leads-page-1f2e.js`])
    expect(urls).toHaveLength(1 + MAX_SCRIPTS)
  })

  it('stores nothing when the visit moved to another page before its calls answered, or has no session', () => {
    storage.setItem(TOKEN_KEY, LIVE)
    noteFirstCalls('/admin/users')
    noteCall(ROWS)
    saveFirstCalls('/admin/cms')
    expect(stored()).toBeNull()
    storage.removeItem(TOKEN_KEY)
    visit('/admin/users', [ROWS])
    expect(stored()).toBeNull()
  })
})

describe('the early script', () => {
  beforeEach(() => {
    storage.setItem(TOKEN_KEY, LIVE)
    visit('/admin/users', [INFO, ROWS])
    visit('/admin/users?search=ann', ['/api/admin/getuser?page=1&limit=50&search=ann'])
    fetchMock.mockClear()
  })

  it('sends the calls noted for this page, with the stored token', () => {
    expect(startEarlyCalls(NOW)).toBeDefined()
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([INFO, ROWS])
    for (const [, init] of fetchMock.mock.calls) expect(new Headers(init?.headers).get('Authorization')).toBe(LIVE)
  })

  it('asks for the noted scripts as module preloads, and only the app’s own', () => {
    const appended: { rel: string; href: string; crossOrigin: string | null }[] = []
    vi.stubGlobal('document', {
      createElement: () => ({ rel: '', href: '', crossOrigin: null }),
      head: { appendChild: (link: (typeof appended)[number]) => void appended.push(link) },
    })
    const kit = `${BASE}/assets/list-kit-5e6f.js`
    storage.setItem(FIRST_CALLS_KEY, JSON.stringify({ '/admin/users': [ROWS, kit, `${BASE}/assets/../secrets.js`, 'https://elsewhere.example/a.js', `${BASE}/assets/x.js?y=1`, `${BASE}/uploads/a.js`] }))
    startEarlyCalls(NOW)
    expect(appended).toEqual([{ rel: 'modulepreload', href: kit, crossOrigin: '' }])
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([ROWS])
  })

  it('tells pages apart by their query', () => {
    location.search = '?search=ann'
    startEarlyCalls(NOW)
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/api/admin/getuser?page=1&limit=50&search=ann'])
  })

  it('sends nothing once the app has begun to render: its screens ask for themselves', () => {
    ;(window as Window).boAppRendering = true
    expect(startEarlyCalls(NOW)).toBeUndefined()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('sends nothing for a page not noted, without a token, with an expired token or after the idle timeout', () => {
    location.pathname = '/admin/cms'
    expect(startEarlyCalls(NOW)).toBeUndefined()
    location.pathname = '/admin/users'
    storage.setItem(TOKEN_KEY, tokenWith({ _id: 'a1', exp: NOW / 1000 - 1 }))
    expect(startEarlyCalls(NOW)).toBeUndefined()
    storage.setItem(TOKEN_KEY, tokenWith({ _id: 'a1', exp: NOW / 1000 + 3600, idle: 60 }))
    storage.setItem(ACTIVITY_KEY, String(NOW - 61_000))
    expect(startEarlyCalls(NOW)).toBeUndefined()
    storage.setItem(TOKEN_KEY, 'Bearer not-a-token')
    expect(startEarlyCalls(NOW)).toBeUndefined()
    storage.removeItem(TOKEN_KEY)
    expect(startEarlyCalls(NOW)).toBeUndefined()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('hands each answer once, to a call with the same token, while it is fresh', () => {
    startEarlyCalls(NOW)
    expect(takeEarlyCall(ROWS, 'Bearer someone.else.s', NOW)).toBeUndefined()
    // Offered once: the answer above was not for that call, and is not kept for another.
    expect(takeEarlyCall(ROWS, LIVE, NOW)).toBeUndefined()
    expect(takeEarlyCall(INFO, LIVE, NOW + EARLY_CALLS_TTL_MS + 1)).toBeUndefined()
    startEarlyCalls(NOW)
    expect(takeEarlyCall(ROWS, LIVE, NOW + 10)).toBeInstanceOf(Promise)
    expect(takeEarlyCall(ROWS, LIVE, NOW + 20)).toBeUndefined()
  })

  it('is taken by `call`: the page’s rows are asked for once, and parsed as any answer', async () => {
    startEarlyCalls(Date.now())
    const answer = await call(getuser, {})
    expect(answer).toMatchObject({ status: 'success', count: 0 })
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([INFO, ROWS])
  })

  it('is sent afresh by `call` when the early one got no answer', async () => {
    fetchMock.mockImplementationOnce(() => Promise.resolve(page())).mockImplementationOnce(() => Promise.reject(new TypeError('network')))
    startEarlyCalls(Date.now())
    await expect(call(getuser, {})).resolves.toMatchObject({ count: 0 })
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([INFO, ROWS, ROWS])
  })

  it('is forgotten with the session: the notes and what was started', () => {
    startEarlyCalls(NOW)
    forgetFirstCalls()
    expect(storage.getItem(FIRST_CALLS_KEY)).toBeNull()
    expect(takeEarlyCall(INFO, LIVE, NOW)).toBeUndefined()
  })
})
