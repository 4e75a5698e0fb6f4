import { Suspense, type ComponentType } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { preloadable } from './preloadable.ts'

const Screen = ({ name }: { name: string }) => <h1>Hello {name}</h1>

/** What a render shows right away: the fallback when the component suspends. */
const shown = (Component: ComponentType<{ name: string }>) =>
  renderToString(
    <Suspense fallback={<p>Loading…</p>}>
      <Component name="Ada" />
    </Suspense>,
  )

describe('preloadable', () => {
  it('suspends like React.lazy while its chunk has not been loaded', () => {
    const lazyScreen = preloadable(async () => Screen)
    expect(shown(lazyScreen.Component)).toContain('Loading…')
  })

  it('renders at once, props passed on, once preloaded: no fallback to sit through', async () => {
    const lazyScreen = preloadable(async () => Screen)
    await lazyScreen.preload()
    const html = shown(lazyScreen.Component)
    expect(html).toContain('Hello <!-- -->Ada')
    expect(html).not.toContain('Loading…')
  })

  it('loads the chunk once however often it is asked for, and again after a failure', async () => {
    let loads = 0
    let fail = true
    const lazyScreen = preloadable(async () => {
      loads += 1
      if (fail) throw new Error('chunk failed to arrive')
      return Screen
    })
    await expect(lazyScreen.preload()).rejects.toThrow('chunk failed to arrive')
    fail = false
    await Promise.all([lazyScreen.preload(), lazyScreen.preload()])
    await lazyScreen.preload()
    expect(loads).toBe(2)
  })
})
