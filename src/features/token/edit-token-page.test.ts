import { describe, expect, it } from 'vitest'
import { TokenInput } from '#contract/token'

describe('Edit Token', () => {
  it('defines the record form against its calls', async () => {
    const page = await import('./edit-token-page.tsx')
    expect(typeof page.EditTokenPage).toBe('function')
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
