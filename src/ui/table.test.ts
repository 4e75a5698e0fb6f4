import { describe, expect, it } from 'vitest'
import { FIT_STAGES, fitTable } from './table.tsx'

/** A table's box whose content narrows by `savings[i]` pixels once stage i is set. */
function box(clientWidth: number, natural: number, savings: readonly number[]) {
  const set = new Set<string>()
  return {
    set,
    clientWidth,
    get scrollWidth() {
      const saved = FIT_STAGES.reduce((sum, stage, i) => sum + (set.has(stage) ? (savings[i] ?? 0) : 0), 0)
      return Math.max(clientWidth, natural - saved)
    },
    setAttribute: (name: string) => void set.add(name),
    removeAttribute: (name: string) => void set.delete(name),
  }
}

describe('fitTable', () => {
  it('leaves a table that fits whole: actions on one line, no text cut', () => {
    const b = box(990, 900, [50, 100, 50])
    fitTable(b)
    expect([...b.set]).toEqual([])
  })

  it('wraps the actions first, and cuts text only when that is not enough', () => {
    const narrow = box(990, 1030, [50, 100, 50])
    fitTable(narrow)
    expect([...narrow.set]).toEqual(['data-wrap-actions'])
    const narrower = box(990, 1100, [50, 100, 50])
    fitTable(narrower)
    expect([...narrower.set]).toEqual(['data-wrap-actions', 'data-cut-text'])
  })

  it('goes back to fewer stages when the box grows again', () => {
    const b = box(770, 1100, [50, 100, 50])
    fitTable(b)
    expect(b.set.size).toBe(3)
    b.clientWidth = 1280
    fitTable(b)
    expect([...b.set]).toEqual([])
  })
})
