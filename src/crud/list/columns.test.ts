import { describe, expect, it } from 'vitest'
import { shortId } from './columns.tsx'

describe('shortId', () => {
  it('keeps short identifiers whole', () => {
    expect(shortId('0x1234')).toBe('0x1234')
    expect(shortId('123456789')).toBe('123456789')
  })

  it('shortens every long identifier the same way: its first 8 characters and an ellipsis', () => {
    expect(shortId('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x529084…')
    expect(shortId('6745f0c2a1b2c3d4e5f60718')).toBe('6745f0c2…')
  })
})
