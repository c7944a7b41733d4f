import { describe, expect, it } from 'vitest'
import type { SourceRecord } from '../records'
import { withCheckpointEdits } from './checkpoint-edits'
import { fileKey, patchedFilesOf, readContentOf, savedContentOf, undoSearchReplace } from './saved-content'

describe('the file as Cline saved it', () => {
  it('reads <final_file_content> whole, an empty file included, and nothing from a result without it', () => {
    const result = (content: string) => `The content was successfully saved to a.ts.\n\nHere is the full, updated content of the file that was saved:\n\n<final_file_content path="a.ts">\n${content}\n</final_file_content>\n\nIMPORTANT: For any future changes to this file, use the final_file_content shown above as your reference.`
    expect(savedContentOf(result('x\n</final_file_content> in a string\n'))).toBe('x\n</final_file_content> in a string\n')
    expect(savedContentOf(result(''))).toBe('')
    expect(savedContentOf('The content was successfully saved to a.ts.')).toBeNull()
  })

  it('undoes SEARCH/REPLACE blocks on the saved file only when each one fits exactly', () => {
    const diff = '------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n------- SEARCH\nd\n=======\nD\n+++++++ REPLACE'
    expect(undoSearchReplace('a\nB\nc\nD\n', diff)).toBe('a\nb\nc\nd\n')
    // The formatter changed the replaced line: no guess.
    expect(undoSearchReplace('a\nB;\nc\nD\n', diff)).toBeUndefined()
    // A block that only deleted lines leaves nothing to find in the saved file.
    expect(undoSearchReplace('a\nc\n', '------- SEARCH\nb\n=======\n+++++++ REPLACE')).toBeUndefined()
  })

  it('takes a read_file result as the file, except for documents read_file converts to text', () => {
    expect(readContentOf("[read_file for 'a.cs'] Result:\nclass A {}\n", 'a.cs')).toBe('class A {}\n')
    expect(readContentOf("[read_file for 'a.ipynb'] Result:\ncell 1", 'a.ipynb')).toBeUndefined()
  })

  it('gives one key to the workspace-relative, absolute and Windows forms of a path', () => {
    expect(fileKey('/w', 'src/a.ts')).toBe(fileKey('/w', '/w/src/a.ts'))
    expect(fileKey('c:/Users/me/app', 'lib\\main.dart')).toBe(fileKey('c:/Users/me/app', 'C:\\Users\\me\\app\\lib\\main.dart'))
  })

  it('drops the not-captured report of a write the checkpoints captured in its turn', () => {
    const records: SourceRecord[] = [
      { kind: 'message', offset: 0, uid: 'u1', parentUid: null, agentId: null, startsTurn: true, role: 'user', content: 'go' },
      { kind: 'change-not-captured', offset: 1, toolCallId: 't1', tool: 'write_to_file', path: '/w/NOTES.md', reason: 'Cline keeps the file only as saved; its content before this write is not known' }
    ]
    const repository = { gitDir: '/w/.git', changes: () => [{ path: 'NOTES.md', before: Buffer.from('old\n'), after: Buffer.from('new\n') }] }
    const { records: out } = withCheckpointEdits(records, [{ from: 'c0', to: 'c1' }], repository, '/w')
    expect(out.map((record) => record.kind)).toEqual(['message', 'file-edit'])
    expect(out[1]).toMatchObject({ path: 'NOTES.md', before: 'old\n', after: 'new\n' })
  })
})

describe('an apply_patch result', () => {
  it('names each file as saved, and the files it deleted', () => {
    const result = 'Successfully applied patch to the following files:\n\n<final_file_content path="src/a.ts">\nexport const a = 1\n\n</final_file_content>\n\nsrc/old.ts: [deleted]'
    expect(patchedFilesOf(result)).toEqual([{ path: 'src/a.ts', after: 'export const a = 1\n' }, { path: 'src/old.ts', after: null }])
  })
})
