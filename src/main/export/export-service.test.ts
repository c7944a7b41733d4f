import { afterEach, describe, expect, it } from 'vitest'
import { buildExportDocument } from './export-document'
import { ExportService, type Scanner } from './export-service'
import { exportCsp } from './html'
import { EXPORT_STYLE } from './html-style'
import type { SecretFinding } from './redaction'
import { recordSampleSession } from './testing/sample-session'

const CORPUS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '</script><script>alert(1)</script>',
  '<!--<script>alert(1)</script>',
  '[click](javascript:alert(1)) <a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<svg onload=alert(1)>',
  '</style><script>alert(1)</script>',
  'line\u2028separator\u2029paragraph'
].join(' ')

/** A scanner that finds the word SECRET-<n>, so tests control findings without real rules. */
const fakeScan: Scanner = (texts) =>
  Promise.resolve(
    texts.flatMap(({ place, text }) =>
      [...text.matchAll(/SECRET-\d+/g)].map((match): SecretFinding => ({
        id: `${place.id}:${match.index}`,
        ruleId: 'test/secret',
        ruleName: 'Test secret',
        placeId: place.id,
        placeLabel: place.label,
        start: match.index,
        end: match.index + match[0].length,
        masked: 'SECRET-…',
        excerpt: ''
      }))
    )
  )

describe('exporting a session', () => {
  let dispose: () => void = () => {}
  afterEach(() => dispose())

  function setup(text?: string, scan: Scanner = fakeScan) {
    const ws = recordSampleSession(text)
    dispose = () => ws.dispose()
    return { ws, service: new ExportService(ws.rt, scan, () => Date.UTC(2026, 2, 11, 8, 30)) }
  }

  it('builds one document: detail, tree path, transcript, checkpoints, changes with diffs', async () => {
    const { ws } = setup()
    const doc = await buildExportDocument(ws.rt, ws.branchId, { withFiles: false })
    expect(doc.session).toMatchObject({ title: 'Try a shorter README', kind: 'branch', turnCount: 2, messageCount: 7 })
    expect(doc.tree).toMatchObject({ ancestors: [{ id: ws.writer.id, title: 'agent', kind: 'main' }], forkSeq: 6, depth: 1 })
    expect(doc.messages.map((m) => m.seq)).toEqual([...Array(7).keys()])
    expect(doc.fileContents).toBeNull()
    const main = await buildExportDocument(ws.rt, ws.writer.id, { withFiles: true })
    expect(main.tree.children.map((c) => c.title)).toEqual(['Try a shorter README'])
    expect(main.fileChanges.map((c) => [c.turn, c.op, c.path, c.diff.kind])).toEqual([
      [1, 'create', 'src/greet.ts', 'text'],
      [2, 'modify', 'README.md', 'text'],
      [2, 'create', 'assets/logo.png', 'binary'],
      [2, 'create', 'notes/plain text.md', 'text'],
      [2, 'create', 'scripts/run.sh', 'text'],
      [2, 'delete', 'old-name.txt', 'text'],
      [3, 'rename', 'scripts/start.sh', 'text'],
      [3, 'mode', 'scripts/start.sh', 'text']
    ])
    expect(main.fileChanges[1]?.diff.patch).toContain('+Says hello, politely.')
    const logo = main.fileChanges[2]?.after?.hash ?? ''
    expect(main.fileContents?.[logo]).toEqual({ encoding: 'base64', base64: expect.any(String) as string })
  })

  it('exports one turn: the conversation up to its end, its checkpoints, its file changes and what those messages used', async () => {
    const { ws } = setup()
    const whole = await buildExportDocument(ws.rt, ws.writer.id, { withFiles: false })
    const doc = await buildExportDocument(ws.rt, ws.writer.id, { withFiles: false, throughTurn: 1 })
    expect(doc.messages.map((m) => m.turn)).toEqual(whole.messages.filter((m) => m.turn <= 1).map((m) => m.turn))
    expect(doc.session).toMatchObject({ turnCount: 1, messageCount: doc.messages.length })
    expect(doc.checkpoints.map((c) => c.turn)).toEqual([1])
    expect(doc.fileChanges.map((c) => [c.turn, c.path])).toEqual([[1, 'src/greet.ts']])
    expect(doc.session.usage).toMatchObject({ inputTokens: 1200, outputTokens: 310, cacheReadTokens: 800, costUsd: 0.0123 })
    await expect(buildExportDocument(ws.rt, ws.writer.id, { withFiles: false, throughTurn: 9 })).rejects.toThrow(/has no turn 9/)
  })

  it('writes HTML with no script, a CSP that allows no network, and every user string escaped', async () => {
    const { ws, service } = setup(CORPUS)
    const page = await service.render({ sessionId: ws.writer.id, format: 'html', withFiles: false, redact: false, keep: [] })
    const html = page.content
    expect(page).toMatchObject({ mimeType: 'text/html; charset=utf-8', fileName: 'retrace-agent-2026-03-11.html' })
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${exportCsp()}">`)
    expect(exportCsp()).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; base-uri 'none'; form-action 'none'$/)
    expect(html.match(/<script/gi)).toBeNull()
    expect(html.match(/<style/g)).toHaveLength(1)
    expect(html).toContain(`<style>${EXPORT_STYLE}</style>`)
    // Every tag is one the renderer writes, with only the attributes it writes: user text made none.
    const tags = [...html.replace(/<style>[\s\S]*?<\/style>/, '<style>').matchAll(/<([a-z][a-z0-9]*)([^>]*)>/gi)]
    expect(new Set(tags.map((tag) => tag[1]))).toEqual(new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'header', 'p', 'h1', 'dl', 'dt', 'dd', 'span', 'nav', 'details', 'summary', 'ol', 'li', 'a', 'main', 'section', 'h2', 'div', 'code', 'pre', 'ins', 'del', 'h3', 'footer', 'ul']))
    const attributes = tags.flatMap((tag) => [...(tag[2] ?? '').matchAll(/\s([\w-]+)(?:="([^"]*)")?/g)].map((a) => ({ name: a[1], value: a[2] ?? '' })))
    expect(new Set(attributes.map((a) => a.name))).toEqual(new Set(['lang', 'charset', 'http-equiv', 'content', 'name', 'class', 'id', 'href', 'open']))
    // No external reference of any kind: the only links are the page's own anchors.
    expect(attributes.filter((a) => a.name === 'href').every((a) => /^#t\d+$/.test(a.value))).toBe(true)
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('renders an assistant reply as Markdown, its raw HTML as text and only http(s) links as links', async () => {
    const { ws, service } = setup()
    ws.rt.recorder.resume(ws.writer.id).append({ role: 'assistant', content: `## Findings\n\n**Fixed** the [docs](https://example.com/docs).\n\n${CORPUS}` })
    const html = (await service.render({ sessionId: ws.writer.id, format: 'html', withFiles: false, redact: false, keep: [] })).content
    expect(html).toContain('<div class="md"><h2>Findings</h2>')
    expect(html).toContain('<strong>Fixed</strong> the <a href="https://example.com/docs" rel="noopener noreferrer nofollow">docs</a>.')
    expect(html).toContain('<li><code>greet(name)</code> returns a greeting.</li>')
    expect(html.match(/<script|<img|<svg/gi)).toBeNull()
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('[click](javascript:alert(1))')
    const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])
    expect(hrefs.filter((href) => !/^#t\d+$/.test(href ?? ''))).toEqual(['https://example.com/docs'])
  })

  it('counts each file once: in the header, the table of contents and each turn', async () => {
    const { ws, service } = setup()
    const html = (await service.render({ sessionId: ws.writer.id, format: 'html', withFiles: false, redact: false, keep: [] })).content
    // 8 changes of 6 files: scripts/run.sh is created, renamed to start.sh, then loses its executable bit.
    expect(html).toContain('3 turns · 13 messages · 6 files changed (8 changes)</dd>')
    expect(html).toContain('<a href="#t3">Rename the script and make it plain.</a><span class="files">1 file</span>')
    expect(html).toContain('<h3>1 file changed (2 changes) in turn 3</h3>')
    expect(html).toContain('<h3>5 files changed in turn 2</h3>')
    const md = (await service.render({ sessionId: ws.writer.id, format: 'md', withFiles: false, redact: false, keep: [] })).content
    expect(md).toContain('6 files changed (8 changes)')
    expect(md).toContain('### 1 file changed (2 changes) in turn 3')
  })

  it('writes Markdown whose user text cannot become markup', async () => {
    const { ws, service } = setup('```\n<script>alert(1)</script> [x](javascript:alert(1))')
    const md = (await service.render({ sessionId: ws.writer.id, format: 'md', withFiles: false, redact: false, keep: [] })).content
    expect(md.startsWith('# agent\n')).toBe(true)
    expect(md).toContain('````text\nNow update the README and add the logo. ```\n<script>alert(1)</script>')
    expect(md).toContain('- created ```` notes/``` <script>alert(1)</script> [x](javascript:alert(1)).md ```` (+2 −0)')
    expect(md).toContain('````diff\n@@ -1,3 +1,6 @@\n # Greeter')
    // Outside fences and code spans, every character that could open markup is escaped.
    const prose = md.replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1\n/g, '').replace(/(`+) [^\n]*? \1/g, '')
    expect(prose).not.toMatch(/(?<!\\)<(?!\/?[a-z]+\s*)/)
    expect(prose).not.toMatch(/(?<!\\)\[x\]/)
  })

  it('hides what the review found except the kept findings, reusing the reviewed scan', async () => {
    let scans = 0
    const counting: Scanner = (texts, options) => {
      scans += 1
      return fakeScan(texts, options)
    }
    const { ws, service } = setup('use SECRET-1 and SECRET-2', counting)
    const review = await service.review({ sessionId: ws.writer.id, format: 'html', withFiles: false })
    expect(review.scannedTexts).toBeGreaterThan(30)
    const kept = review.findings.find((f) => f.placeId.endsWith('.content') && f.start === 'Now update the README and add the logo. use '.length)
    expect(kept).toBeDefined()
    const page = await service.render({ sessionId: ws.writer.id, format: 'html', withFiles: false, redact: true, keep: [kept?.id ?? ''], token: review.token })
    expect(scans).toBe(1)
    expect(page.redactedCount).toBe(review.findings.length - 1)
    // Kept: in the prompt, and in the table of contents that quotes it.
    expect(page.content.match(/SECRET-1/g)).toHaveLength(2)
    expect(page.content).not.toContain('SECRET-2')
    expect(page.content).toContain('[REDACTED: Test secret]')
    expect(page.content).toContain(`${page.redactedCount} secrets hidden after review, shown as [REDACTED: …].`)
  })

  it('refuses to render a review of a session that changed since, and renders without a token by scanning again', async () => {
    const { ws, service } = setup('SECRET-9')
    const review = await service.review({ sessionId: ws.writer.id, format: 'md', withFiles: false })
    ws.rt.recorder.resume(ws.writer.id).append({ role: 'user', content: 'one more thing' })
    await expect(service.render({ sessionId: ws.writer.id, format: 'md', withFiles: false, redact: true, keep: [], token: review.token })).rejects.toMatchObject({ code: 'CONFLICT' })
    const fresh = await service.render({ sessionId: ws.writer.id, format: 'md', withFiles: false, redact: true, keep: [] })
    expect(fresh.content).not.toContain('SECRET-9')
  })

  it('cancels a running scan', async () => {
    const slow: Scanner = (_texts, options) =>
      new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted'))))
    const { ws, service } = setup('x', slow)
    const running = service.review({ sessionId: ws.writer.id, format: 'html', withFiles: false })
    expect(service.cancel(ws.writer.id)).toBe(true)
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' })
    expect(service.cancel(ws.writer.id)).toBe(false)
  })
})
