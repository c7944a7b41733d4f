import { ExportDocumentSchema, type ExportDocument } from '../document-schema'

const HASH_A = 'a'.repeat(64)
const HASH_B = 'b'.repeat(64)
const HASH_C = 'c'.repeat(64)
const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 1, cacheWriteTokens: 2, costUsd: 0.5 }
const ref = (id: string, title: string) => ({ id, title, kind: 'branch' as const })
const path = (text: string) => ({ path: text, pathId: Buffer.from(text).toString('base64') })

/**
 * An export document with every optional part filled in (tree links of each kind, both kinds
 * of source reference, nested tool input, a rename, file contents of each encoding), built by
 * hand so it does not depend on what a store happens to produce.
 */
export function fullDocument(): ExportDocument {
  const message = (seq: number, turn: number, role: ExportDocument['messages'][number]['role'], extra: Partial<ExportDocument['messages'][number]> = {}) => ({
    seq,
    turn,
    role,
    content: `content ${seq}`,
    toolName: null,
    toolCallId: null,
    toolInput: null,
    isError: false,
    model: null,
    usage: null,
    createdAt: 1_000 + seq,
    inContext: true,
    sourceRef: null,
    ...extra
  })
  return ExportDocumentSchema.parse({
    session: {
      id: 'session-1',
      title: 'A title',
      source: 'native',
      kind: 'branch',
      status: 'active',
      model: 'a-model',
      cwd: '/work/project',
      createdAt: 1_000,
      updatedAt: 2_000,
      messageCount: 6,
      turnCount: 2,
      contextStartSeq: 4,
      usage
    },
    workspace: { name: 'project', path: '/work/project' },
    tree: {
      ancestors: [ref('root', 'Root title'), ref('mid', 'Middle title')],
      forkSeq: 3,
      depth: 2,
      predecessor: ref('before', 'Previous title'),
      successors: [ref('after', 'Next title')],
      children: [ref('child', 'Child title')]
    },
    messages: [
      message(0, 1, 'user', { sourceRef: { file: '/agent/session.jsonl', offset: 12 } }),
      message(1, 1, 'tool_call', {
        toolName: 'Bash',
        toolCallId: 'call-1',
        toolInput: { command: 'ls', nested: { list: ['one', { deep: 'two' }], flag: true, n: 3 }, 'odd/key~name': 'three' },
        model: 'tool-model'
      }),
      message(2, 1, 'tool_result', { toolName: 'Bash', toolCallId: 'call-1', isError: true, sourceRef: { table: 'checkpoints', rowId: 'row-9' } }),
      message(3, 1, 'assistant', { model: 'answer-model', usage }),
      message(4, 2, 'compaction_summary'),
      message(5, 2, 'tool_call', { toolName: 'Echo', toolCallId: 'call-2', toolInput: 'a bare string input', inContext: false })
    ],
    checkpoints: [{ turn: 1, messagesBefore: 0, invalidated: false, uncapturedCommands: 1, createdAt: 1_500 }],
    fileChanges: [
      { turn: 1, ...path('src/a.ts'), op: 'modify', from: null, before: { kind: 'file', hash: HASH_A, size: 3, mode: 420 }, after: { kind: 'file', hash: HASH_B, size: 4, mode: 420 }, observed: 'tool', diff: { kind: 'text', added: 1, removed: 1, patch: '@@ -1 +1 @@\n-a\n+b', omittedLines: 0 } },
      { turn: 2, ...path('new/name.bin'), op: 'rename', from: path('old/name.bin'), before: { kind: 'file', hash: HASH_C, size: 2, mode: 420 }, after: { kind: 'file', hash: HASH_C, size: 2, mode: 420 }, observed: 'scan', diff: { kind: 'binary', added: null, removed: null, patch: '', omittedLines: 0 } }
    ],
    fileContents: {
      [HASH_A]: { encoding: 'utf8', text: 'a\n' },
      [HASH_B]: { encoding: 'omitted', size: 4, reason: 'a reason Retrace wrote' },
      [HASH_C]: { encoding: 'base64', base64: Buffer.from([0, 1]).toString('base64') }
    }
  })
}
