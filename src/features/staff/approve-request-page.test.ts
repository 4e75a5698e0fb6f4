import { describe, expect, it } from 'vitest'
import { fieldErrors } from '#contract/common'
import { approveForm } from './approve-request-page.tsx'

const prepare = (values: Record<string, unknown>) => {
  if (!approveForm.prepare) throw new Error('the approve form prepares its access list')
  return approveForm.prepare(values)
}

describe('the approve form', () => {
  it("sends a View Only user's chosen pages without child pages, with Profile and Reset Password, as Edit User does", () => {
    const sent = prepare({ _id: 'r1', name: 'Ann', email: 'ann@example.com', accessLevel: 'View Only', restrictions: ['/brand', '/addbrand'] })
    expect(sent['restrictions']).toEqual(['/brand', '/profile', '/resetpassword'])
  })

  it('sends every page (an empty list) for an Admin, whatever was chosen before', () => {
    expect(prepare({ accessLevel: 'Admin', restrictions: ['/category'] })['restrictions']).toEqual([])
  })

  it('asks for Edit User fields with its messages: a user type, and pages unless Admin', () => {
    const start = { _id: 'r1', name: 'Ann', email: 'ann@example.com', accessLevel: '', restrictions: [] }
    const missingType = approveForm.endpoint.input.safeParse(start)
    expect(missingType.success ? {} : fieldErrors(missingType.error)).toEqual({ accessLevel: 'AccessLevel is required' })
    const missingPages = approveForm.endpoint.input.safeParse({ ...start, accessLevel: 'View Only' })
    expect(missingPages.success ? {} : fieldErrors(missingPages.error)).toEqual({ restrictions: 'Restrictions is required' })
  })

  it('keeps the requested email out of the editable fields', () => {
    const shown = approveForm.fields.filter((f) => !f.when || f.when({ accessLevel: 'View Only' })).map((f) => f.name)
    expect(shown).toEqual(['name', 'accessLevel', 'restrictions'])
  })
})
