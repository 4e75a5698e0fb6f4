import { describe, expect, it } from 'vitest'
import { nulField } from './text-input.ts'

describe('nulField', () => {
  it('names the top-level field holding U+0000 at any depth, in values and keys', () => {
    expect(nulField({ name: 'a\u0000b' })).toBe('name')
    expect(nulField({ id: 'x', datas: { _id: '\u0000' } })).toBe('datas')
    expect(nulField({ country: ['France', 'Ja\u0000pan'] })).toBe('country')
    expect(nulField({ data: { ['k\u0000']: 1 } })).toBe('data')
    expect(nulField({ ['k\u0000']: 1 })).toBe('form')
    expect(nulField('\u0000')).toBe('form')
    expect(nulField(['ok', '\u0000'])).toBe('form')
  })

  it('passes every other string, however odd, and non-strings', () => {
    expect(nulField({ name: '\uD800 \u202E \u0001 \uFFFF', n: 1, b: true, z: null, list: [[{}]] })).toBeNull()
    expect(nulField(undefined)).toBeNull()
  })

  it('walks a body nested thousands of levels deep without recursion', () => {
    let deep: unknown = 'a\u0000'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(nulField({ id: deep })).toBe('id')
  })
})
