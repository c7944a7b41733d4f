import { Marked, type Tokens } from 'marked'
import { escapeAttribute, escapeHtml } from './html-escape'

// Markdown in the exported page, as the window shows an assistant's reply: headings, lists,
// tables, code and links read as such. The page runs anywhere, offline, in any browser, so the
// Markdown is made safe by construction (every raw HTML piece is shown as text; links only to
// http(s) and mailto; no image, no form control) and then checked against an allowlist of
// tags and attributes (defence in depth: nothing Marked adds later can slip through).

/** Links the page may carry; anything else (javascript:, data:, file:, relative) stays as text. */
const SAFE_HREF = /^(https?:\/\/|mailto:)/i

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // A block of HTML reads as the lines it was written in; inline HTML as the text it is.
    html: (token: Tokens.HTML | Tokens.Tag) =>
      token.block ? `<p>${escapeHtml(token.text.replace(/\n+$/, '')).replace(/\n/g, '<br>\n')}</p>\n` : escapeHtml(token.text),
    image: ({ text, href }: Tokens.Image) => escapeHtml(`[image: ${text || 'untitled'}${href ? ` — ${href}` : ''}]`),
    link(token: Tokens.Link) {
      const href = token.href.trim()
      // The source as written, so a refused link reads exactly as the agent wrote it.
      if (!SAFE_HREF.test(href)) return escapeHtml(token.raw)
      return `<a href="${escapeAttribute(href)}" rel="noopener noreferrer nofollow">${this.parser.parseInline(token.tokens)}</a>`
    },
    checkbox: ({ checked }: Tokens.Checkbox) => (checked ? '☑ ' : '☐ ')
  }
})

/** Tags Marked writes for Markdown, and the attributes each may keep. */
const ALLOWED: Record<string, readonly string[]> = {
  p: [],
  br: [],
  hr: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  em: [],
  strong: [],
  del: [],
  code: ['class'],
  pre: [],
  blockquote: [],
  ul: [],
  ol: ['start'],
  li: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['align'],
  td: ['align'],
  a: ['href', 'rel']
}

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z-]+(?:="[^"<>]*")?)*)\s*(\/?)>/g
const ATTRIBUTE = /\s+([a-zA-Z-]+)(?:="([^"<>]*)")?/g
const SAFE_VALUE: Record<string, RegExp> = {
  class: /^language-[\w+#.-]{1,40}$/,
  start: /^\d{1,9}$/,
  align: /^(left|right|center)$/,
  rel: /^noopener noreferrer nofollow$/,
  href: SAFE_HREF
}

/** Keep only allowed tags with allowed attributes; escape any other `<…>` as text. */
export function allowlistHtml(html: string): string {
  return html.replace(TAG, (whole, slash: string, name: string, attributes: string) => {
    const tag = name.toLowerCase()
    const allowed = ALLOWED[tag]
    if (!allowed) return escapeHtml(whole)
    if (slash) return `</${tag}>`
    const kept: string[] = []
    for (const [, attrName = '', value = ''] of attributes.matchAll(ATTRIBUTE)) {
      const attr = attrName.toLowerCase()
      const decoded = value.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
      if (allowed.includes(attr) && SAFE_VALUE[attr]?.test(decoded)) kept.push(` ${attr}="${value}"`)
    }
    return `<${tag}${kept.join('')}>`
  })
}

/** A message's Markdown as safe HTML for the page. */
export function markdownToSafeHtml(text: string): string {
  return allowlistHtml(marked.parse(text, { async: false }))
}
