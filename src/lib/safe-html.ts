/**
 * HTML from the server, made safe to put into the page: DOMPurify with the mail allowlist the
 * server sanitises with (server/kit/ground/sanitize.ts). The server's copy is the one that counts; this
 * one means the PWA never trusts that it ran (an older server, another backend speaking the
 * contract). Rich text reaches the DOM only through here or a sandboxed iframe.
 */
import DOMPurify from 'dompurify'

const TAGS = ['p', 'br', 'h1', 'h2', 'h3', 'strong', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'blockquote', 'hr', 'img']
const ATTRIBUTES = ['href', 'target', 'rel', 'title', 'src', 'alt', 'width', 'height']
/** Links to the web or a mailbox, a whole `{{variable}}` address, inline raster images. */
const ADDRESSES = /^(?:https?:|mailto:|data:image\/(?:png|jpeg|gif|webp);base64,|\{\{\s*[A-Za-z][A-Za-z0-9_]*\s*\}\}$)/i

const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,/i

// An image loads when it is parsed into the page: only inline ones may stay (a remote one is a
// tracker, and DOMPurify would otherwise let any https: address through the pattern above).
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'IMG' && !INLINE_IMAGE.test(node.getAttribute('src') ?? '')) node.removeAttribute('src')
})

/** `html` reduced to the mail allowlist, as HTML text. */
export function safeHtml(html: string): string {
  return DOMPurify.sanitize(html, { ALLOWED_TAGS: TAGS, ALLOWED_ATTR: ATTRIBUTES, ALLOWED_URI_REGEXP: ADDRESSES, ALLOW_DATA_ATTR: false })
}
