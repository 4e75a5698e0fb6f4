import { describe, expect, it } from 'vitest'
import type { AccessRequest } from '#contract/access-requests'
import { approveHref, requestFromState } from './request-record.ts'

const request = (n: number): AccessRequest => ({ _id: `r${n}`, name: `Requester ${n}`, email: `r${n}@example.com`, createdAt: '2026-01-02T03:04:05.000Z', confirmedAt: '2026-01-02T03:10:00.000Z' })

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
