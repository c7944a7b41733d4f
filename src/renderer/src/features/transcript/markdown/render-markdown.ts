import DOMPurify from 'dompurify'
import { Marked } from 'marked'
import { markedHighlight } from 'marked-highlight'
import { highlight } from '../../../ui/highlighter'

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char)

const marked = new Marked(
  { gfm: true, breaks: false, async: false },
  {
    renderer: {
      // Raw HTML in a transcript is shown as the text it is, never parsed: an agent quoting
      // `<img onerror=…>` should read as that, and hostile markup never reaches a parser.
      html: ({ text }) => escapeHtml(text),
      // No remote images (tracking, CSP): show the alt text and address instead.
      image: ({ text, href }) => escapeHtml(`[image: ${text || 'untitled'}${href ? ` — ${href}` : ''}]`)
    }
  },
  markedHighlight({
    emptyLangClass: 'hljs',
    langPrefix: 'hljs language-',
    // marked-highlight escapes the code itself when we return it unchanged.
    highlight: (code, language) => highlight(code, language) ?? code
  })
)

// Transcript text is untrusted (it may quote web pages, prompt injections, or HTML on
// purpose). Besides escaping raw HTML above, Marked's output still goes through DOMPurify
// (defence in depth) with a narrow profile: no images, no forms, no inline styles, and
// links that cannot open anything.
const PURIFY_CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['img', 'picture', 'video', 'audio', 'source', 'style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'svg', 'math'],
  FORBID_ATTR: ['style', 'target', 'srcset', 'action', 'formaction'],
  ALLOW_DATA_ATTR: false
}

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    const href = node.getAttribute('href')
    if (href) node.setAttribute('title', href)
    node.setAttribute('rel', 'noopener noreferrer nofollow')
    node.removeAttribute('target')
  }
})

const CACHE_LIMIT = 400
const cache = new Map<string, string>()

/**
 * Sanitized HTML for an assistant message's Markdown. Cached by text, because virtualized
 * rows unmount and remount as the user scrolls and parsing + highlighting is the costly part.
 */
export function renderMarkdown(text: string): string {
  const hit = cache.get(text)
  if (hit !== undefined) return hit
  const raw = marked.parse(text, { async: false })
  const html = DOMPurify.sanitize(raw, PURIFY_CONFIG)
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next().value
    if (oldest !== undefined) cache.delete(oldest)
  }
  cache.set(text, html)
  return html
}
