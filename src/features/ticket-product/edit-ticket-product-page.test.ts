import { describe, expect, it } from 'vitest'
import { TokenInput } from '#contract/ticket-product'

describe('Edit Token', () => {
  // defineRecordForm checks the definition when the module loads, and names the screen after its title.
  it('defines the record form against its calls, titled as the requirements do', async () => {
    const page = await import('./edit-ticket-product-page.tsx')
    expect(page.EditTicketProductPage.displayName).toBe('RecordForm(Edit Token)')
  })

  it('takes the form’s text values and keeps the price as the exact text typed', () => {
    expect(TokenInput.parse({ tokenName: ' Gold ', price: '0.10', productId: 'p1', ticketCount: '12' })).toEqual({
      tokenName: 'Gold',
      price: '0.10',
      productId: 'p1',
      ticketCount: 12,
    })
  })
})
