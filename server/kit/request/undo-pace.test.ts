import { describe, expect, it } from 'vitest'
import { pace } from './undo.ts'

describe('the pace of a big move', () => {
  it('makes the next batch smaller, in proportion, when one took longer than the target', () => {
    const speed = pace(500, 60)
    speed.took(500, 240)
    expect(speed.size()).toBe(125)
    speed.took(125, 120)
    expect(speed.size()).toBe(62)
  })

  it('never goes below its smallest batch, however slow a batch was', () => {
    const speed = pace(500, 60)
    speed.took(500, 60_000)
    expect(speed.size()).toBe(20)
  })

  it('grows back after two quick batches in a row, never past where it started', () => {
    const speed = pace(500, 60)
    speed.took(500, 120)
    expect(speed.size()).toBe(250)
    speed.took(250, 10)
    expect(speed.size()).toBe(250)
    speed.took(250, 10)
    expect(speed.size()).toBe(500)
    speed.took(500, 10)
    speed.took(500, 10)
    expect(speed.size()).toBe(500)
  })

  it('does not judge a last, short batch by its time', () => {
    const speed = pace(500, 60)
    speed.took(12, 400)
    expect(speed.size()).toBe(500)
  })

  it('keeps its count without a target (PostgreSQL runs the batches off the event loop)', () => {
    const speed = pace(2000, undefined)
    speed.took(2000, 5_000)
    expect(speed.size()).toBe(2000)
  })
})
