import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatExact } from '#src/lib/dates.ts'
import { When } from './when.tsx'

const NOW = Date.UTC(2026, 10, 26, 20, 21, 19)
const iso = (ms: number) => new Date(ms).toISOString()
const MIN = 60 * 1000

describe('<When>', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shows a recent moment relative, with the exact one as its title and for screen readers', () => {
    vi.useFakeTimers({ now: NOW })
    const at = iso(NOW - 3 * MIN)
    const html = renderToStaticMarkup(createElement(When, { at }))
    const exact = formatExact(at)
    expect(html).toContain(`dateTime="${at}"`)
    expect(html).toContain(`title="${exact}"`)
    expect(html).toContain('<span aria-hidden="true">3 minutes ago</span>')
    expect(html).toContain(`<span class="sr-only">3 minutes ago, ${exact}</span>`)
    expect(renderToStaticMarkup(createElement(When, { at: '' }))).toBe('--')
  })
})
