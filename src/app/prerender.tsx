/**
 * Build-time rendering of a route (vite.config.ts, prerenderLogin): the same tree main.tsx
 * hydrates, with the router told the path. react-dom/static waits for the lazy screen, so the
 * markup is the screen itself, not its loading state. Never part of the browser's bundle.
 */
import { StrictMode } from 'react'
import { prerenderToNodeStream } from 'react-dom/static'
import { renderToStaticMarkup } from 'react-dom/server'
import { App } from './app.tsx'
import { Loading } from './loading.tsx'

/** The HTML of `path` (with the base, e.g. /admin/login) for a visitor with no session. */
export async function prerenderRoute(path: string): Promise<string> {
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <App ssrPath={path} />
    </StrictMode>,
  )
  let html = ''
  for await (const chunk of prelude) html += String(chunk)
  return html
}

/**
 * The loading state every other route starts from (index.html's #root): painted from the document
 * while the code loads, then replaced by React's first render.
 */
export const loadingMarkup = (): string => renderToStaticMarkup(<Loading />)
