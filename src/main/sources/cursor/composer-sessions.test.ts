import { describe, expect, it } from 'vitest'
import { composerSessions } from './composer-sessions'

/** One composer of two bubbles, shaped as Cursor's global store keeps them (fixtures/cursor/current/stores.json). */
function storesWith(toolFormerData: Record<string, unknown>, contents: Record<string, string> = {}) {
  const id = 'c0ffee00-0000-4000-8000-000000000001'
  const headers = [{ bubbleId: 'u1', type: 1 }, { bubbleId: 'a1', type: 2 }]
  const bubbles = new Map([
    ['u1', JSON.stringify({ _v: 3, type: 1, bubbleId: 'u1', text: 'Rename the helper', createdAt: '2026-01-10T10:00:00Z' })],
    ['a1', JSON.stringify({ _v: 3, type: 2, bubbleId: 'a1', text: '', createdAt: '2026-01-10T10:00:05Z', toolFormerData })]
  ])
  const composer = JSON.stringify({ _v: 10, composerId: id, name: 'Rename', createdAt: 1_768_039_200_000, fullConversationHeadersOnly: headers })
  return composerSessions({ workspaceComposers: [], composers: new Map([[id, composer]]), bubbles: new Map([[id, bubbles]]), contents: new Map(Object.entries(contents)), problems: [] })
}

const changes = (read: ReturnType<typeof storesWith>) => (read.sessions[0]?.records ?? []).filter((record) => record.kind === 'file-edit' || record.kind === 'change-not-captured')

describe('every composer call that changes files is a change or a change not captured', () => {
  const params = JSON.stringify({ relativeWorkspacePath: 'src/http.ts' })
  it('an edit with both contents kept is a change; one whose before is gone, or that has no result, is reported with why', () => {
    const kept = { name: 'edit_file_v2', toolCallId: 't1', status: 'completed', params, result: JSON.stringify({ beforeContentId: 'composer.content.b', afterContentId: 'composer.content.a' }) }
    expect(changes(storesWith(kept, { 'composer.content.b': 'old\n', 'composer.content.a': 'new\n' }))).toMatchObject([{ kind: 'file-edit', path: 'src/http.ts', before: 'old\n', after: 'new\n' }])
    expect(changes(storesWith(kept, { 'composer.content.a': 'new\n' }))).toMatchObject([{ kind: 'change-not-captured', toolCallId: 't1', tool: 'edit_file_v2', path: 'src/http.ts', reason: 'Cursor no longer keeps the file before this edit' }])
    expect(changes(storesWith({ name: 'edit_file_v2', toolCallId: 't2', status: 'loading', params }))).toMatchObject([{ kind: 'change-not-captured', path: 'src/http.ts', reason: expect.stringMatching(/^Cursor kept no result for this call/) as string }])
    expect(changes(storesWith({ name: 'delete_file', toolCallId: 't3', status: 'completed', params: JSON.stringify({ targetFile: 'old.ts' }), result: '{}' }))).toMatchObject([{ kind: 'change-not-captured', tool: 'delete_file', path: 'old.ts', reason: 'Cursor kept no content before and after this change' }])
    // A failed call changed nothing; a read changes nothing.
    expect(changes(storesWith({ name: 'edit_file_v2', toolCallId: 't4', status: 'error', params }))).toEqual([])
    expect(changes(storesWith({ name: 'read_file_v2', toolCallId: 't5', status: 'completed', params, result: '{}' }))).toEqual([])
  })
})
