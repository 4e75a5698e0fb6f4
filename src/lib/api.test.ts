import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { editProfile, login } from '#contract/auth'
import { addcategory, listCategory, deleteCategory } from '#contract/catalog'
import { getuser } from '#contract/leads'
import { saveView } from '#contract/saved-views'
import { ApiError, SecondFactorRequired, call, assetUrl } from './api.ts'
import { WRITES_OFFLINE_MESSAGE } from './online.ts'
import { STEP_UP_CANCELLED, answerStepUp, currentStepUp, subscribeStepUp } from './step-up.ts'
import { STEP_UP_MESSAGE, STEP_UP_REQUIRED } from '#contract/common'
import { createSubAdminUsers } from '#contract/staff'
import { TOKEN_KEY } from './token.ts'
import { memoryStorage } from '../testing/memory-storage.ts'

let storage: ReturnType<typeof memoryStorage>
const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>()
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const lastRequest = () => {
  const [url, init] = fetchMock.mock.calls.at(-1) ?? []
  if (url === undefined || init === undefined) throw new Error('fetch was not called')
  return { url, init, headers: new Headers(init.headers) }
}

beforeEach(() => {
  storage = memoryStorage()
  vi.stubGlobal('window', { localStorage: storage, addEventListener: () => {} })
  vi.stubGlobal('navigator', { onLine: true })
  vi.stubGlobal('fetch', fetchMock)
  fetchMock.mockReset()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('call', () => {
  it('sends a GET input as a query string with the contract defaults and the stored token', async () => {
    storage.setItem(TOKEN_KEY, 'Bearer abc.def.ghi')
    fetchMock.mockResolvedValue(json({ status: 'success', message: 'ok', data: [], count: 0 }))
    const answer = await call(getuser, { search: 'ann' })
    expect(answer.count).toBe(0)
    const { url, init, headers } = lastRequest()
    expect(url).toBe('/api/admin/getuser?page=1&limit=50&search=ann')
    expect(init.method).toBe('GET')
    expect(headers.get('Authorization')).toBe('Bearer abc.def.ghi')
  })

  it('sends a POST input as JSON', async () => {
    fetchMock.mockResolvedValue(json({ status: 'success', message: 'Category deleted', undo: { token: 't1', seconds: 10 } }))
    await call(deleteCategory, { id: 'c1' })
    const { url, init, headers } = lastRequest()
    expect(url).toBe('/api/admin/deleteCategory')
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(init.body).toBe(JSON.stringify({ id: 'c1' }))
  })

  it('sends multipart with the files when the endpoint has file fields', async () => {
    fetchMock.mockResolvedValue(json({ status: 'success', message: 'Category added' }))
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' })
    await call(addcategory, { categoryName: 'Arcade' }, { image: [file] })
    const { init, headers } = lastRequest()
    expect(headers.get('Content-Type')).toBeNull() // the browser adds the multipart boundary
    expect(init.body).toBeInstanceOf(FormData)
    const form = init.body instanceof FormData ? init.body : new FormData()
    expect(form.get('categoryName')).toBe('Arcade')
    expect(form.get('image')).toBeInstanceOf(File)
  })

  it('refuses input the contract refuses, with its message, without calling the server', async () => {
    await expect(call(addcategory, { categoryName: ' ' })).rejects.toMatchObject({
      message: 'categoryName is required',
      errors: { categoryName: 'categoryName is required' },
    })
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('throws the server message and field errors of a failed answer (requirements R8.1, R8.2)', async () => {
    fetchMock.mockResolvedValue(json({ status: 'failed', message: 'Category already exists', errors: { categoryName: 'Category already exists' } }, 400))
    const error = await call(deleteCategory, { id: 'c1' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 400, message: 'Category already exists', errors: { categoryName: 'Category already exists' } })
  })

  it("treats a 200 answer with status 'failed' as a failure", async () => {
    fetchMock.mockResolvedValue(json({ status: 'failed', message: 'No luck' }))
    await expect(call(listCategory, {})).rejects.toMatchObject({ message: 'No luck' })
  })

  it('throws SecondFactorRequired with the server message on TWO_FA', async () => {
    fetchMock.mockResolvedValue(json({ status: 'TWO_FA', message: 'Enter your code' }))
    const error = await call(login, { email: 'a@b.co', password: 'Abc@123' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SecondFactorRequired)
    expect(error).toMatchObject({ message: 'Enter your code' })
  })

  it('ends the session on a 401 from a signed-in call, but not from login', async () => {
    storage.setItem(TOKEN_KEY, 'Bearer abc.def.ghi')
    fetchMock.mockResolvedValue(json({ status: 'failed', message: 'Invalid email or password' }, 401))
    await expect(call(login, { email: 'a@b.co', password: 'Abc@123' })).rejects.toBeInstanceOf(ApiError)
    expect(storage.getItem(TOKEN_KEY)).toBe('Bearer abc.def.ghi')
    fetchMock.mockResolvedValue(json({ status: 'failed', message: 'Unauthorized, please log in again' }, 401))
    await expect(call(listCategory, {})).rejects.toMatchObject({ status: 401, message: 'Unauthorized, please log in again' })
    expect(storage.getItem(TOKEN_KEY)).toBeNull()
  })

  it('refuses a write while offline without sending or queueing it', async () => {
    vi.stubGlobal('navigator', { onLine: false })
    await expect(call(deleteCategory, { id: 'c1' })).rejects.toMatchObject({ status: 0, message: WRITES_OFFLINE_MESSAGE })
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("refuses the session's own writes while offline too (Edit Profile, saving a view)", async () => {
    vi.stubGlobal('navigator', { onLine: false })
    await expect(call(editProfile, { name: 'Ann' })).rejects.toMatchObject({ status: 0, message: WRITES_OFFLINE_MESSAGE })
    await expect(call(saveView, { route: '/category', name: 'Mine', query: '' })).rejects.toMatchObject({ status: 0, message: WRITES_OFFLINE_MESSAGE })
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('still sends a read while offline (the cache or the service worker may answer)', async () => {
    vi.stubGlobal('navigator', { onLine: false })
    fetchMock.mockResolvedValue(json({ status: 'success', message: 'ok', data: [], count: 0 }))
    await call(getuser, {})
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('reports an unreachable server as status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    await expect(call(listCategory, {})).rejects.toMatchObject({ status: 0 })
  })

  it('refuses an answer that does not match the contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    fetchMock.mockResolvedValue(json({ status: 'success', message: 'ok', result: 'not a list', count: 1 }))
    await expect(call(listCategory, {})).rejects.toMatchObject({ message: 'The server sent an answer this app does not understand.' })
  })
})

describe('assetUrl', () => {
  describe('a step-up refusal', () => {
    const refusal = () => json({ status: 'failed', message: STEP_UP_MESSAGE, code: STEP_UP_REQUIRED, twoFactor: true, passkey: false }, 403)
    const staff = { name: 'Ann', email: 'ann@example.com', password: 'Passw0rd!', accessLevel: 'Admin' as const, restrictions: [], twoFACode: '' }

    it('asks the admin, then sends the call once more when they proved it is them', async () => {
      const asked: unknown[] = []
      const stop = subscribeStepUp(() => {
        const question = currentStepUp()
        if (question === null) return
        asked.push(question)
        answerStepUp(true)
      })
      try {
        fetchMock.mockResolvedValueOnce(refusal()).mockResolvedValueOnce(json({ status: 'success', message: 'User created successfully' }))
        await expect(call(createSubAdminUsers, staff)).resolves.toEqual({ status: 'success', message: 'User created successfully' })
        expect(asked).toEqual([{ message: STEP_UP_MESSAGE, twoFactor: true, passkey: false }])
        expect(fetchMock).toHaveBeenCalledTimes(2)
        // Refused again after the proof: no third try, the server's message.
        fetchMock.mockResolvedValueOnce(refusal()).mockResolvedValueOnce(refusal())
        await expect(call(createSubAdminUsers, staff)).rejects.toMatchObject({ status: 403, message: STEP_UP_MESSAGE })
        expect(fetchMock).toHaveBeenCalledTimes(4)
      } finally {
        stop()
      }
    })

    it('leaves the action undone with a clear message when the admin cancels', async () => {
      const stop = subscribeStepUp(() => {
        if (currentStepUp() !== null) answerStepUp(false)
      })
      try {
        fetchMock.mockResolvedValueOnce(refusal())
        await expect(call(createSubAdminUsers, staff)).rejects.toMatchObject({ status: 403, message: STEP_UP_CANCELLED })
        expect(fetchMock).toHaveBeenCalledTimes(1)
      } finally {
        stop()
      }
    })

    it('fails at once with nobody on screen to ask, and a plain 403 stays a plain failure', async () => {
      fetchMock.mockResolvedValueOnce(refusal())
      await expect(call(createSubAdminUsers, staff)).rejects.toMatchObject({ status: 403, message: STEP_UP_CANCELLED })
      fetchMock.mockResolvedValueOnce(json({ status: 'failed', message: 'You do not have permission to do this' }, 403))
      await expect(call(createSubAdminUsers, staff)).rejects.toMatchObject({ status: 403, message: 'You do not have permission to do this' })
      expect(fetchMock).toHaveBeenCalledTimes(2)
    })
  })

  it('keeps absolute URLs and roots upload paths at the API origin', () => {
    expect(assetUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png')
    expect(assetUrl('/uploads/a.png')).toBe('/uploads/a.png')
    expect(assetUrl('uploads/a.png')).toBe('/uploads/a.png')
    expect(assetUrl('')).toBe('')
  })
})
