import { afterEach, describe, expect, it } from 'vitest'
import { pathReplacer } from './anonymize-path'
import { ExportService } from './export-service'
import { recordSampleSession } from './testing/sample-session'

describe('replacing the local workspace path', () => {
  it('replaces the workspace folder by its name and the home folder by ~, only at folder boundaries', () => {
    const replace = pathReplacer('/home/ann/code/shop', 'shop', '/home/ann')
    expect(replace('cd /home/ann/code/shop && cat /home/ann/code/shop/src/a.ts')).toBe('cd shop && cat shop/src/a.ts')
    expect(replace('/home/ann/code/shop-old/x and /home/ann/code/shop.bak')).toBe('~/code/shop-old/x and ~/code/shop.bak')
    expect(replace('/home/ann/.claude/projects/x.jsonl; /home/annex')).toBe('~/.claude/projects/x.jsonl; /home/annex')
    expect(replace('"/home/ann/code/shop/"')).toBe('"shop/"')
  })

  it('replaces the folder as Claude Code spells it in its project folder name too', () => {
    const replace = pathReplacer('/home/ann/code/my.shop', 'my.shop', '/home/ann')
    expect(replace('/home/ann/.claude/projects/-home-ann-code-my-shop/1.jsonl')).toBe('~/.claude/projects/my-shop/1.jsonl')
  })

  it('never replaces every slash for a root folder', () => {
    expect(pathReplacer('/', 'root', '/')('/etc/hosts')).toBe('/etc/hosts')
  })

  describe('in an export', () => {
    let dispose = () => {}
    afterEach(() => dispose())

    it('leaves no trace of the folder in the page: messages, tool inputs and results, diffs, the header', async () => {
      const ws = recordSampleSession('plain')
      dispose = () => ws.dispose()
      const root = ws.root
      const writer = ws.rt.recorder.resume(ws.writer.id)
      writer.append({ role: 'tool_call', toolName: 'Read', toolCallId: 'call-9', toolInput: { file_path: `${root}/README.md`, nested: { cwd: root } } })
      writer.append({ role: 'tool_result', toolName: 'Read', toolCallId: 'call-9', content: `${root}/README.md: 5 lines` })
      writer.append({ role: 'assistant', content: `I read \`${root}/README.md\`.` })
      const service = new ExportService(ws.rt, () => Promise.resolve([]), () => 0)
      const request = { sessionId: ws.writer.id, format: 'html' as const, withFiles: false, redact: false, keep: [] }
      const plain = (await service.render(request)).content
      expect(plain).toContain(root)
      const shared = (await service.render({ ...request, anonymizePath: true })).content
      expect(shared).not.toContain(root)
      expect(shared).toContain('<dt>Workspace</dt><dd>project</dd>')
      expect(shared).toContain('<code class="gist">project/README.md</code>')
      expect(shared).toContain('<dt>nested</dt><dd><pre>{\n  &quot;cwd&quot;: &quot;project&quot;\n}</pre></dd>'.replace(/&quot;/g, '"'))
      expect(shared).toContain('<pre>project/README.md: 5 lines</pre>')
      expect(shared).toContain('I read <code>project/README.md</code>.')
      // The review scans what is written: the same flag makes the same token.
      const review = await service.review({ ...request, anonymizePath: true })
      await expect(service.render({ ...request, redact: true, anonymizePath: true, token: review.token })).resolves.toBeDefined()
      await expect(service.render({ ...request, redact: true, anonymizePath: false, token: review.token })).rejects.toMatchObject({ code: 'CONFLICT' })
    })
  })
})
