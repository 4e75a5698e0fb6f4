/**
 * The one HTML sanitiser of the server: rich text (email templates, the newsletter body, anything
 * else an admin writes as HTML) goes through `sanitizeRichText` before it is stored and again
 * before it is sent. It is an allowlist fit for mail, not a blocklist: what is not listed below is
 * dropped, so a vector nobody thought of has nothing to ride on.
 *
 * Kept: paragraphs and line breaks, headings 1 to 3, strong, em, u, s, lists, blockquote, hr,
 * links and inline images, with no attribute beyond those named. Gone: every style, class, id
 * and event handler, script, style, iframe, object, form, meta, base, svg and math (with their
 * content where it could only be code or markup in disguise).
 *
 * Links keep an http, https or mailto address, or a whole `{{variable}}` placeholder that the mail
 * fills in (the newsletter's `{{unsubscribeUrl}}`); after rendering the filled-in address is
 * checked again, since rendering sanitises once more. Relative links mean nothing in a mail and
 * are dropped with every other scheme.
 *
 * Images: only inline `data:` PNG, JPEG, GIF or WebP. A remote image in a mail is fetched by the
 * reader's client when the mail is opened, which tells whoever serves it that, when and from where
 * the mail was read (a tracking pixel), and breaks when that host goes away; the platform does not
 * do that to its users. An inline image costs size instead (bounded by the content's length limit)
 * and some webmail hides it, showing its alt text. SVG is refused even inline: it is a document
 * that can carry script.
 */
import sanitizeHtml, { type Attributes, type IOptions } from 'sanitize-html'

const LINK = /^(?:https?:|mailto:)/i
/** The whole href is one placeholder, filled in (and checked again) when the mail is rendered. */
const PLACEHOLDER_LINK = /^\{\{\s*[A-Za-z][A-Za-z0-9_]*\s*\}\}$/
const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/i

/** Elements whose content is dropped with them: code, or markup a browser would parse differently. */
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'textarea', 'option', 'select', 'noscript', 'noembed', 'noframes', 'xmp', 'plaintext', 'template',
  'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg', 'math', 'title', 'head', 'canvas', 'video', 'audio',
]

function link(_tag: string, attribs: Attributes): { tagName: string; attribs: Attributes } {
  const href = (attribs['href'] ?? '').trim()
  const kept: Attributes = {}
  if (LINK.test(href) || PLACEHOLDER_LINK.test(href)) {
    kept['href'] = href
    // Opened outside the mail client's frame, and without telling the target where it came from.
    kept['target'] = '_blank'
    kept['rel'] = 'noopener noreferrer'
  }
  if (attribs['title'] !== undefined) kept['title'] = attribs['title']
  return { tagName: 'a', attribs: kept }
}

function image(_tag: string, attribs: Attributes): { tagName: string; attribs: Attributes } {
  const src = (attribs['src'] ?? '').replace(/\s+/g, '')
  if (!INLINE_IMAGE.test(src)) return { tagName: 'img', attribs: {} }
  const kept: Attributes = { src }
  for (const name of ['alt', 'width', 'height']) {
    const value = attribs[name]
    if (value !== undefined && (name === 'alt' || /^\d{1,4}$/.test(value))) kept[name] = value
  }
  return { tagName: 'img', attribs: kept }
}

const OPTIONS: IOptions = {
  allowedTags: ['p', 'br', 'h1', 'h2', 'h3', 'strong', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'blockquote', 'hr', 'img'],
  allowedAttributes: { a: ['href', 'target', 'rel', 'title'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  parseStyleAttributes: false,
  // A fragment, not a document: text after a stray </html> is content like any other.
  enforceHtmlBoundary: false,
  nestingLimit: 50,
  transformTags: { a: link, img: image, b: 'strong', i: 'em', strike: 's', del: 's', h4: 'h3', h5: 'h3', h6: 'h3' },
  // An image without an acceptable source is nothing at all, not an empty frame; a link without
  // an acceptable address is its text alone.
  exclusiveFilter: (frame) => {
    if (frame.tag === 'img') return frame.attribs['src'] === undefined
    return frame.tag === 'a' && frame.attribs['href'] === undefined ? 'excludeTag' : false
  },
}

/** Rich text reduced to the mail allowlist above. Idempotent: sanitising twice gives the same HTML. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS)
}

/** Text for an HTML text node or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}
