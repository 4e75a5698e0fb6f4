import { safeHtml } from '#src/lib/safe-html.ts'

/**
 * What the frame's document may load: inline images and its own style, nothing from anywhere,
 * so even markup that got past both sanitisers could not call another host.
 */
const FRAME_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
const FRAME_STYLE = 'body{font-family:system-ui,sans-serif;font-size:14px;line-height:1.5;color:#0f172a;margin:16px}img{max-width:100%}blockquote{border-left:4px solid #cbd5e1;margin-left:0;padding-left:12px}'

/**
 * A mail's HTML as a mail client would show it, in an iframe with an empty sandbox (no script, no
 * forms, no navigation, no same-origin access to the app), built from the HTML after DOMPurify and
 * under a policy that loads nothing but inline images.
 */
export function MailFrame({ html, title }: { html: string; title: string }) {
  const srcDoc = [
    '<!doctype html><html><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${FRAME_POLICY}">`,
    `<style>${FRAME_STYLE}</style></head><body>`,
    safeHtml(html),
    '</body></html>',
  ].join('')
  return <iframe title={title} sandbox="" srcDoc={srcDoc} className="h-80 w-full rounded-md border border-slate-300 bg-white" />
}
