import { describe, expect, it } from 'vitest'
import type { MessageRecord, SourceRecord } from '../records'
import { clineRanges, rooRanges } from './checkpoint-ranges'
import { withRestoreNotes } from './task-checkpoints'
import { readUiMessages } from './ui-messages'

/** A message record at `offset`, saved at `createdAt`. */
function message(offset: number, role: MessageRecord['role'], createdAt: number, startsTurn = false): MessageRecord {
  return { kind: 'message', offset, uid: `t#${offset}.${role}`, parentUid: null, agentId: null, startsTurn, role, content: role, createdAt }
}

describe('which checkpoints a turn runs between', () => {
  // Two turns: prompt at 100, answers at 300 and 500; feedback at 1000, answer at 1300.
  const records: SourceRecord[] = [message(0, 'user', 100, true), message(1, 'tool_call', 300), message(3, 'tool_call', 500), message(4, 'user', 1000, true), message(5, 'tool_call', 1300)]

  it('Roo Code: the last checkpoint saved before the turn\'s first answer, else the repository\'s first commit', () => {
    // Saved before the first answer's write (200), when the user answered (1050), before the next write (1250).
    const saved = [{ hash: 'c1', from: 'c0', ts: 200 }, { hash: 'c2', from: 'c1', ts: 1050 }, { hash: 'c3', from: 'c2', ts: 1250 }]
    expect(rooRanges(records, saved)).toEqual([{ from: 'c1', to: 'c3' }, { from: 'c3', to: 'c3' }])
    // No checkpoint before the first answer: the turn starts at the initial commit.
    expect(rooRanges(records, saved.slice(1))).toEqual([{ from: 'c1', to: 'c3' }, { from: 'c3', to: 'c3' }])
    expect(rooRanges(records, [{ hash: 'c2', from: 'c0', ts: 1050 }])).toEqual([{ from: 'c0', to: 'c2' }, { from: 'c2', to: 'c2' }])
  })

  it('Cline: the last checkpoint before the prompt, by history index', () => {
    const checkpoints = [{ hash: 'k0', historyIndex: -1, ts: 50 }, { hash: 'k1', historyIndex: 3, ts: 900 }, { hash: 'k2', historyIndex: 5, ts: 1400 }]
    expect(clineRanges(records, checkpoints)).toEqual([{ from: 'k0', to: 'k1' }, { from: 'k1', to: 'k2' }])
  })
})

describe('a checkpoint restored inside the agent', () => {
  it('marks the place with what the deleted requests cost, for Roo\'s api_req_deleted and Cline\'s deleted_api_reqs', () => {
    const records: SourceRecord[] = [message(0, 'user', 100, true), message(1, 'assistant', 2000)]
    const deleted = JSON.stringify({ tokensIn: 10, tokensOut: 90, cacheWrites: 0, cacheReads: 0, cost: 0.0123 })
    const cline = readUiMessages([
      { ts: 150, type: 'say', say: 'checkpoint_created', lastCheckpointHash: 'abc1234', conversationHistoryIndex: 0, isCheckpointCheckedOut: true },
      { ts: 1500, type: 'say', say: 'deleted_api_reqs', text: deleted }
    ])
    const notes = withRestoreNotes(records, cline.restores, 'Cline', 't')
    expect(notes.map((record) => (record.kind === 'message' ? [record.role, record.content] : record.kind))).toEqual([
      ['user', 'user'],
      ['system', 'Cline restored checkpoint abc1234 here: it deleted the messages after it and their requests (100 tokens, $0.0123).'],
      ['assistant', 'assistant']
    ])
    // A restore after everything kept goes last; one whose row is not JSON still says where.
    const roo = readUiMessages([{ ts: 150, type: 'say', say: 'checkpoint_saved', text: 'def5678', checkpoint: { from: 'c0', to: 'def5678' } }, { ts: 3000, type: 'say', say: 'api_req_deleted', text: 'oops' }])
    expect(withRestoreNotes(records, roo.restores, 'Roo Code', 't').at(-1)).toMatchObject({ role: 'system', content: 'Roo Code restored checkpoint def5678 here: it deleted the messages after it and their requests.', createdAt: 3000 })
  })
})
