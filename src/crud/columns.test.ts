import { describe, expect, it } from 'vitest'
import { middleEllipsis } from './columns.tsx'

describe('middleEllipsis', () => {
  it('keeps short identifiers whole', () => {
    expect(middleEllipsis('0x1234')).toBe('0x1234')
  })

  it('shortens a wallet address in the middle, keeping both ends', () => {
    expect(middleEllipsis('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x529084…169EE7')
  })
})
