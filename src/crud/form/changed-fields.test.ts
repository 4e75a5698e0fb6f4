import { describe, expect, it } from 'vitest'
import { changedFields } from './changed-fields.ts'
import { imageUpload, number, text } from './form-fields.ts'

const fields = [text('tokenName', 'Token Name'), text('price', 'Price'), number('ticketCount', 'Ticket Count'), imageUpload('logo', 'Logo')]

describe('changedFields', () => {
  it('lists only the fields whose value changed, in the form order, with before and after', () => {
    const stored = { tokenName: 'Gold', price: '0.10', ticketCount: '12', logo: 'a.png' }
    const current = { tokenName: 'Gold', price: '0.25', ticketCount: '10', logo: 'b.png' }
    expect(changedFields(fields, stored, current)).toEqual([
      { label: 'Price', before: '0.10', after: '0.25' },
      { label: 'Ticket Count', before: '12', after: '10' },
    ])
  })

  it('reads a stored number as the text typed for it, ignores spaces around, and names an empty value', () => {
    expect(changedFields(fields, { ticketCount: 12, tokenName: 'Gold' }, { ticketCount: '12', tokenName: ' Gold ' })).toEqual([])
    expect(changedFields(fields, { tokenName: 'Gold' }, { tokenName: '' })).toEqual([{ label: 'Token Name', before: 'Gold', after: '(empty)' }])
  })
})
