import { describe, expect, it } from 'vitest'
import type { AccessRequest } from '#contract/access-requests'
import { approveHref, findRequest, requestFromState, type RequestPage } from './request-record.ts'

const request = (n: number): AccessRequest => ({ _id: `r${n}`, name: `Requester ${n}`, email: `r${n}@example.com`, createdAt: '2026-01-02T03:04:05.000Z' })

/** A pending list of `total` requests, read page by page; records which pages were asked for. */
function pendingList(total: number) {
  const all = Array.from({ length: total }, (_, i) => request(i + 1))
  const asked: number[] = []
  const readPage = (page: number, limit: number): Promise<RequestPage> => {
    asked.push(page)
    return Promise.resolve({ result: all.slice((page - 1) * limit, page * limit), count: all.length })
  }
  return { readPage, asked }
}

describe('findRequest', () => {
  it('finds a request on the first page without reading further', async () => {
    const list = pendingList(25)
    expect(await findRequest('r3', list.readPage, 10)).toEqual(request(3))
    expect(list.asked).toEqual([1])
  })

  it('reads on until the page that holds the request', async () => {
    const list = pendingList(25)
    expect((await findRequest('r23', list.readPage, 10))?.email).toBe('r23@example.com')
    expect(list.asked).toEqual([1, 2, 3])
  })

  it('stops at the end of the list when the request is gone (approved or declined)', async () => {
    const list = pendingList(25)
    expect(await findRequest('r99', list.readPage, 10)).toBeUndefined()
    expect(list.asked).toEqual([1, 2, 3])
  })

  it('stops on an empty list', async () => {
    const list = pendingList(0)
    expect(await findRequest('r1', list.readPage, 10)).toBeUndefined()
    expect(list.asked).toEqual([1])
  })

  it('stops on a short page even when the count promised more (the list shrank meanwhile)', async () => {
    const asked: number[] = []
    const readPage = (page: number): Promise<RequestPage> => {
      asked.push(page)
      return Promise.resolve({ result: page === 1 ? [request(1), request(2)] : [], count: 30 })
    }
    expect(await findRequest('r7', readPage, 10)).toBeUndefined()
    expect(asked).toEqual([1])
  })
})

describe('requestFromState', () => {
  it('takes the request passed in history state when it is the one in the URL', () => {
    expect(requestFromState({ record: request(1) }, 'r1')).toEqual(request(1))
  })

  it('ignores state about another request, and state of another shape', () => {
    expect(requestFromState({ record: request(1) }, 'r2')).toBeUndefined()
    expect(requestFromState({ record: { _id: 'r1', name: 'No email' } }, 'r1')).toBeUndefined()
    expect(requestFromState(null, 'r1')).toBeUndefined()
  })
})

describe('approveHref', () => {
  it('opens Edit User for the request, its id encoded', () => {
    expect(approveHref('a b/c')).toBe('/edit-subAdmin?request=a%20b%2Fc')
  })
})
