import { describe, expect, it } from 'vitest'
import { XSS_HOST, XSS_VECTORS } from '../../../tests/e2e/xss-vectors.ts'
import { escapeHtml, sanitizeRichText } from './sanitize.ts'

const ALLOWED_TAGS = new Set(['p', 'br', 'h1', 'h2', 'h3', 'strong', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'blockquote', 'hr', 'img'])
const ALLOWED_ATTRIBUTES: Record<string, ReadonlySet<string>> = { a: new Set(['href', 'target', 'rel', 'title']), img: new Set(['src', 'alt', 'width', 'height']) }

/**
 * Every tag of sanitised HTML, read back. The output escapes `<` in text, so each `<` starts a real
 * tag: a tag outside the allowlist, an attribute outside it, or an address other than http(s),
 * mailto, a placeholder or an inline raster image, is a finding.
 */
function findings(html: string): string[] {
  const found: string[] = []
  for (const [tag] of html.matchAll(/<[^>]*>/g)) {
    const name = /^<\/?([a-z0-9]+)/i.exec(tag)?.[1]?.toLowerCase() ?? tag
    if (!ALLOWED_TAGS.has(name)) found.push(`tag ${tag}`)
    for (const [, attribute = '', , value = ''] of tag.matchAll(/\s([^\s=/>]+)(="([^"]*)")?/g)) {
      const attr = attribute.toLowerCase()
      if (!(ALLOWED_ATTRIBUTES[name]?.has(attr) ?? false)) found.push(`attribute ${attr} in ${tag}`)
      if (attr === 'href' && !/^(https?:|mailto:|\{\{\w+\}\})/i.test(value)) found.push(`href ${value}`)
      if (attr === 'src' && !/^data:image\/(png|jpeg|gif|webp);base64,/i.test(value)) found.push(`src ${value}`)
    }
  }
  const markup = Array.from(html.matchAll(/<[^>]*>/g), (m) => m[0]).join(' ')
  if (/<script|javascript:|\son\w+\s*=/i.test(markup)) found.push('script, javascript: or a handler inside markup')
  return found
}

describe('sanitizeRichText', () => {
  it('keeps the formatting a mail needs', () => {
    const html =
      '<h1>Title</h1><h2>Sub</h2><h3>Small</h3><p>A <strong>bold</strong>, <em>italic</em>, <u>underlined</u> and <s>struck</s> word.<br>Next line</p>' +
      '<ul><li>one</li></ul><ol><li>two</li></ol><blockquote><p>quoted</p></blockquote><hr>'
    expect(sanitizeRichText(html)).toBe(html.replace('<br>', '<br />').replace('<hr>', '<hr />'))
  })

  it('keeps http, https and mailto links and a placeholder address, opened apart and without referrer', () => {
    expect(sanitizeRichText('<a href="https://wallet.example/a?b=1&amp;c=2">x</a>')).toBe(
      '<a href="https://wallet.example/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">x</a>',
    )
    expect(sanitizeRichText('<a href="mailto:help@wallet.example">m</a>')).toContain('href="mailto:help@wallet.example"')
    expect(sanitizeRichText('<a href="http://wallet.example">h</a>')).toContain('href="http://wallet.example"')
    expect(sanitizeRichText('<a href="{{unsubscribeUrl}}">u</a>')).toContain('href="{{unsubscribeUrl}}"')
  })

  it('turns links without an acceptable address into their text', () => {
    for (const href of ['javascript:alert(1)', '/relative', '//wallet.example/x', 'ftp://wallet.example', 'data:text/html,x', '{{a}}{{b}}', 'https']) {
      expect(sanitizeRichText(`<p><a href="${href}">text</a></p>`), href).toBe('<p>text</p>')
    }
  })

  it('keeps inline raster images only: remote images are trackers, SVG can carry script', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo='
    expect(sanitizeRichText(`<img src="${png}" alt="Logo" width="120" height="40" class="x">`)).toBe(`<img src="${png}" alt="Logo" width="120" height="40" />`)
    expect(sanitizeRichText('<img src="https://tracker.example/p.gif" alt="t">')).toBe('')
    expect(sanitizeRichText('<img src="data:image/svg+xml;base64,PHN2Zz4=">')).toBe('')
    expect(sanitizeRichText(`<img src="${png}" width="100%">`)).toBe(`<img src="${png}" />`)
  })

  it('drops styles, classes, ids, handlers and every other tag, with the content of code-like ones', () => {
    expect(sanitizeRichText('<p style="color:red" class="c" id="i" onclick="x()">text</p>')).toBe('<p>text</p>')
    expect(sanitizeRichText('<div><span>kept text</span></div><script>gone()</script><style>p{}</style>')).toBe('kept text')
    expect(sanitizeRichText('<b>b</b><i>i</i><strike>s</strike><h5>h</h5>')).toBe('<strong>b</strong><em>i</em><s>s</s><h3>h</h3>')
  })

  it('gives the same HTML when run again', () => {
    for (const { name, html } of XSS_VECTORS) {
      const once = sanitizeRichText(html)
      expect(sanitizeRichText(once), name).toBe(once)
    }
  })

  it(`leaves nothing of ${XSS_VECTORS.length} known XSS vectors that could run or load`, () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(100)
    const results = XSS_VECTORS.map(({ name, html }) => ({ name, clean: sanitizeRichText(html) }))
    expect(results.flatMap(({ name, clean }) => findings(clean).map((f) => `${name}: ${f}`))).toEqual([])
    expect(results.filter(({ clean }) => clean.includes(XSS_HOST) && !/href="https:\/\/xss\.example\/"/.test(clean)).map((r) => r.name)).toEqual([])
  })

  it('the findings check itself catches what it looks for', () => {
    expect(findings('<p onclick="x">a</p>')).not.toEqual([])
    expect(findings('<a href="javascript:x">a</a>')).not.toEqual([])
    expect(findings('<img src="https://x.example/a.png" />')).not.toEqual([])
    expect(findings('<iframe></iframe>')).not.toEqual([])
    expect(findings('<p>plain &lt;script&gt; text</p>')).toEqual([])
  })
})

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;')
  })
})
