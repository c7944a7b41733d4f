import { describe, expect, it } from 'vitest'
import { allowlistHtml, markdownToSafeHtml } from './html-markdown'

describe('Markdown in the exported page', () => {
  it('renders headings, emphasis, code, lists, tables and task lists', () => {
    const html = markdownToSafeHtml('# Plan\n\n**bold** and `a < b`\n\n```ts\nconst a = 1 < 2\n```\n\n- [x] done\n- [ ] todo\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n3. three\n4. four')
    expect(html).toContain('<h1>Plan</h1>')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('<code>a &lt; b</code>')
    expect(html).toContain('<pre><code class="language-ts">const a = 1 &lt; 2')
    expect(html).toContain('☑ done')
    expect(html).toContain('☐ todo')
    expect(html).not.toContain('<input')
    expect(html).toContain('<th align="left">a</th>')
    expect(html).toContain('<ol start="3">')
  })

  it('links only to http(s) and mailto, and shows any other link as the text it was written as', () => {
    const html = markdownToSafeHtml('[docs](https://example.com/a?b=1&c="2") [bad](javascript:alert(1)) [data](data:text/html,x) [rel](../secret.txt)')
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=&quot;2&quot;" rel="noopener noreferrer nofollow">docs</a>')
    expect(html).toContain('[bad](javascript:alert(1))')
    expect(html).toContain('[data](data:text/html,x)')
    expect(html).toContain('[rel](../secret.txt)')
    expect(html.match(/<a /g)).toHaveLength(1)
  })

  it('shows raw HTML and images as text, never as markup', () => {
    const corpus = [
      '<script>alert(1)</script>',
      'inline <img src=x onerror=alert(1)> here',
      '<a href="javascript:alert(1)">a javascript: link</a>',
      '<!--<script>alert(1)</script>',
      '</style><script>alert(1)</script>',
      '<svg onload=alert(1)>',
      '<iframe src="https://example.com/frame"></iframe>',
      '![pixel](https://example.com/pixel.png)'
    ]
    for (const text of corpus) {
      const html = markdownToSafeHtml(text)
      expect(html, text).not.toMatch(/<(script|img|svg|iframe|style|link|meta)\b/i)
      expect(html, text).not.toMatch(/<a href="(?!https?:|mailto:)/i)
      expect(html, text).not.toMatch(/<[^>]*\son[a-z]+=/i)
    }
    expect(markdownToSafeHtml('![pixel](https://example.com/pixel.png)')).toContain('[image: pixel — https://example.com/pixel.png]')
  })

  it('refuses a javascript: autolink and a code fence language that tries to close its attribute', () => {
    expect(markdownToSafeHtml('see <javascript:alert(1)>')).toBe('<p>see &lt;javascript:alert(1)&gt;</p>\n')
    const fence = markdownToSafeHtml('```"><script>alert(1)</script>\nx\n```')
    expect(fence).toMatch(/^<pre><code>x\n<\/code><\/pre>/)
    expect(fence).not.toContain('<script')
  })

  it('keeps the lines of a raw HTML block, as text', () => {
    expect(markdownToSafeHtml('<div>\n<script>alert(1)</script>\n</div>')).toBe('<p>&lt;div&gt;<br>\n&lt;script&gt;alert(1)&lt;/script&gt;<br>\n&lt;/div&gt;</p>\n')
  })

  it('escapes any tag or attribute outside the allowlist (defence in depth)', () => {
    expect(allowlistHtml('<p onclick="x()">a</p><script>b</script><a href="javascript:c">d</a><code class="x y">e</code>')).toBe(
      '<p>a</p>&lt;script&gt;b&lt;/script&gt;<a>d</a><code>e</code>'
    )
  })
})
