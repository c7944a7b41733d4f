import { describe, expect, it } from 'vitest'
import type { MessageRecord } from '../records'
import { historySessions } from './read-history'

/** aider/io.py `user_input`: each line of an input logged as `#### <line>  `, after a blank line. */
const input = (text: string) => `\n${text.split('\n').map((line) => `#### ${line}  `).join('\n')}\n`
/** aider/io.py `ai_output`: the answer, between blank lines. */
const answer = (text: string) => `\n${text.trim()}\n\n`
const output = (...lines: string[]) => lines.map((line) => `> ${line}  \n`).join('')

/**
 * An architect-mode run in the shapes Aider 0.8x writes (architect_coder.py `reply_completed`: the
 * editor coder runs `with_message=` the architect's answer, which io.py logs as `####` lines, as
 * in the real public histories found; none under a licence that allows copying it here).
 */
const PLAN = 'To add the method, change `DataFrameManager`:\n\n1. In `manager.py`, add `filter_by_business`.\n\n```python\ndef filter_by_business(self, business_id):\n    return self.frames[business_id]\n```'
const HISTORY = [
  '\n# aider chat started at 2025-02-10 10:00:00\n\n',
  output('Aider v0.74.2', 'Main model: o3-mini with architect edit format', 'Editor model: gpt-4o with editor-diff edit format'),
  input('add a filter by business to the manager'),
  answer(PLAN),
  output('Tokens: 5.1k sent, 958 received. Cost: $0.02 message, $0.07 session.', 'Edit the files? (Y)es/(N)o [Yes]: y'),
  input(PLAN),
  answer('manager.py\n```python\n<<<<<<< SEARCH\nclass DataFrameManager:\n=======\nclass DataFrameManager:\n    def filter_by_business(self, business_id):\n        return self.frames[business_id]\n>>>>>>> REPLACE\n```'),
  output('Tokens: 5.7k sent, 1.4k received. Cost: $0.03 message, $0.10 session.', 'Applied edit to manager.py', 'Commit c2a7a91 feat: Add filter_by_business'),
  input('thanks, now run the tests'),
  answer('Run `pytest`.')
].join('')

describe('Aider architect mode', () => {
  it('does not count the answer handed to the editor model as a prompt of the user', () => {
    const read = historySessions(Buffer.from(HISTORY))
    const messages = (read.sessions[0]?.records ?? []).filter((r): r is MessageRecord => r.kind === 'message')
    expect(messages.filter((m) => m.startsTurn).map((m) => m.content)).toEqual(['add a filter by business to the manager', 'thanks, now run the tests'])
    // Kept, as what Aider said to its editor model, in the first turn.
    expect(messages.filter((m) => m.role === 'system' && m.content.startsWith('To add the method'))).toHaveLength(1)
    // The editor's block is the turn's edit, once.
    expect((read.sessions[0]?.records ?? []).filter((r) => r.kind === 'file-edit').map((r) => r.kind === 'file-edit' && r.path)).toEqual(['manager.py'])
  })
})
