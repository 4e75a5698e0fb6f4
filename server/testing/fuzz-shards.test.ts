/** The fuzz's shards (fuzz.ts) leave no caller out and have a test file each. */
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { FUZZ_SHARDS, callers } from './fuzz.ts'

describe('fuzz shards', () => {
  it('hold every caller exactly once', () => {
    expect(Object.values(FUZZ_SHARDS).flat().slice().sort()).toEqual([...callers].sort())
  })

  it('each run from a test file of their own', () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((f) => /^fuzz-.+\.test\.ts$/.test(f) && f !== 'fuzz-shards.test.ts')
    expect(files.slice().sort()).toEqual(Object.keys(FUZZ_SHARDS).map((s) => `fuzz-${s}.test.ts`).sort())
  })
})
