import { afterEach, describe, expect, it } from 'vitest'
import type { TreeNode } from '../../shared/contract/tree'
import { contractCaller } from '../sources/testing/import-testbed'
import { ExportService, type Scanner } from './export-service'
import { exportCsp } from './html'
import type { SecretFinding } from './redaction'
import { recordSampleSession } from './testing/sample-session'
import { treeOrder } from './workspace-export'

const node = (id: string, createdAt: number, links: Partial<Pick<TreeNode, 'parentId' | 'predecessorId' | 'warmup'>> = {}): TreeNode => ({
  id,
  title: id,
  titleOrigin: 'own',
  kind: links.parentId ? 'branch' : 'main',
  source: 'native',
  parentId: null,
  missingParent: null,
  warmup: false,
  forkSeq: null,
  predecessorId: null,
  createdAt,
  updatedAt: createdAt,
  turnCount: 1,
  messageCount: 2,
  filesChanged: 0,
  costUsd: null,
  status: 'closed',
  forkTurn: null,
  rewoundInAgent: false,
  merged: null,
  coverage: { recorded: 0, notCaptured: 0, uncapturedCommands: 0, agentKeepsNoContent: false },
  ...links
})

/** Finds the word SECRET-<n>. */
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

describe('a workspace index page', () => {
  it('orders sessions as the tree: roots oldest first, their branches below them, a continuation after its predecessor, no warm-ups', () => {
    const nodes = [
      node('later-root', 50),
      node('root', 10),
      node('branch-b', 30, { parentId: 'root' }),
      node('branch-a', 20, { parentId: 'root' }),
      node('sub', 40, { parentId: 'branch-a' }),
      node('after-clear', 60, { predecessorId: 'root' }),
      node('warmup', 5, { warmup: true }),
      node('orphan', 70, { parentId: 'gone' })
    ]
    expect(treeOrder(nodes)).toEqual([
      { id: 'root', depth: 0 },
      { id: 'branch-a', depth: 1 },
      { id: 'sub', depth: 2 },
      { id: 'branch-b', depth: 1 },
      { id: 'after-clear', depth: 0 },
      { id: 'later-root', depth: 0 },
      { id: 'orphan', depth: 0 }
    ])
  })

  describe('rendered', () => {
    let dispose = () => {}
    afterEach(() => dispose())

    function setup(text?: string) {
      const ws = recordSampleSession(text)
      dispose = () => ws.dispose()
      return { ws, service: new ExportService(ws.rt, fakeScan, () => Date.UTC(2026, 2, 11, 8, 30)) }
    }

    it('lists every session in tree order, each linked to its transcript in the same self-contained page', async () => {
      const { ws } = setup()
      const page = await contractCaller(ws.rt)('export.renderWorkspace', { workspaceId: ws.workspaceId, redact: false })
      const html = page.content
      expect(page).toMatchObject({ fileName: expect.stringMatching(/^retrace-workspace-project-\d{4}-\d\d-\d\d\.html$/) as string, mimeType: 'text/html; charset=utf-8' })
      expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${exportCsp()}">`)
      expect(html.match(/<script/gi)).toBeNull()
      expect(html).toContain('<p class="kicker">Workspace · 2 sessions</p><h1>project</h1>')
      expect(html).toContain('<li class="depth-0"><span class="n">1</span><a href="#s1">agent</a>')
      expect(html).toContain('<li class="depth-1"><span class="n">2</span><a href="#s2">Try a shorter README</a>')
      expect(html).toContain('<article class="session" id="s1">')
      expect(html).toContain('<article class="session" id="s2">')
      expect(html).toContain('<section class="turn" id="s1-t3">')
      expect(html).toContain('<a href="#s2-t1">')
      // The sessions name each other by link: the branch's parent, the parent's branches.
      expect(html).toContain('<dt>Branches</dt><dd><a href="#s2">Try a shorter README</a> (branch)</dd>')
      expect(html).toContain('<span class="crumbs"><span><a href="#s1">agent</a></span><span class="here">Try a shorter README</span></span>')
      // Every link is an anchor of this page, and every anchor it names is there.
      const hrefs = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1] ?? '')
      const ids = new Set([...html.matchAll(/ id="([^"]*)"/g)].map((m) => m[1]))
      expect(hrefs.length).toBeGreaterThan(8)
      for (const href of hrefs) {
        expect(href).toMatch(/^#/)
        expect(ids.has(href.slice(1)), href).toBe(true)
      }
    })

    it('reviews every session at once and hides what was found in each, except the kept finding', async () => {
      const { ws, service } = setup('use SECRET-1 here')
      ws.rt.recorder.resume(ws.branchId).append({ role: 'user', content: 'and SECRET-2 in the branch' })
      const review = await service.reviewWorkspace({ workspaceId: ws.workspaceId, anonymizePath: false })
      const labels = review.findings.map((f) => f.placeLabel)
      expect(labels.filter((label) => label.startsWith('Session 1 · ')).length).toBeGreaterThan(2)
      expect(labels.filter((label) => label.startsWith('Session 2 · '))).toEqual(['Session 2 · Turn 3 · User (message 8)'])
      const kept = review.findings.find((f) => f.placeLabel.startsWith('Session 2 · '))
      const page = await service.renderWorkspace({ workspaceId: ws.workspaceId, anonymizePath: false, redact: true, keep: [kept?.id ?? ''], token: review.token })
      expect(page.redactedCount).toBe(review.findings.length - 1)
      const [first = '', second = ''] = page.content.split('<article class="session" id="s2">')
      expect(first).toContain('<a href="#s1">agent</a>')
      expect(first).not.toContain('SECRET-1')
      expect(first).toContain('[REDACTED: Test secret]')
      expect(second).toContain('and SECRET-2 in the branch')
      ws.rt.recorder.resume(ws.branchId).append({ role: 'user', content: 'changed' })
      await expect(service.renderWorkspace({ workspaceId: ws.workspaceId, anonymizePath: false, redact: true, keep: [], token: review.token })).rejects.toMatchObject({ code: 'CONFLICT' })
    })

    it('replaces the workspace folder by its name in every session with anonymizePath', async () => {
      const { ws, service } = setup()
      ws.rt.recorder.resume(ws.branchId).append({ role: 'tool_result', toolName: 'Bash', toolCallId: 'x', content: `${ws.root}/README.md` })
      const plain = await service.renderWorkspace({ workspaceId: ws.workspaceId, anonymizePath: false, redact: false, keep: [] })
      expect(plain.content).toContain(ws.root)
      const shared = await service.renderWorkspace({ workspaceId: ws.workspaceId, anonymizePath: true, redact: false, keep: [] })
      expect(shared.content).not.toContain(ws.root)
      expect(shared.content).toContain('project/README.md')
    })
  })
})
