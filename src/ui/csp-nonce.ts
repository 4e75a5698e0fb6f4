/**
 * The style nonce of this page. The server puts a fresh one in each shell it
 * sends, in the Content-Security-Policy header (`style-src-elem 'self' 'nonce-…'`) and in
 * `<meta name="csp-nonce">`; style elements made at run time carry it, and no other inline style
 * is allowed. Scripts never take a nonce (`script-src 'self'`), so reading it here gives nothing
 * to injected markup, which cannot run.
 */
declare global {
  /** What get-nonce (Radix's scroll lock, through react-style-singleton) reads for its style elements. */
  var __webpack_nonce__: string | undefined
}

const PLACEHOLDER = '__CSP_NONCE__'
let nonce: string | undefined | null = null

/** The nonce, or undefined where none was given (the dev server, a test page). */
export function cspNonce(): string | undefined {
  if (nonce === null) {
    const value = typeof document === 'undefined' ? undefined : document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content
    nonce = value && value !== PLACEHOLDER ? value : undefined
  }
  return nonce
}

/** Gives the nonce to the libraries that make style elements without asking us: call before the first render. */
export function shareCspNonce(): void {
  const value = cspNonce()
  if (value !== undefined) globalThis.__webpack_nonce__ = value
}
