import { describe, expect, it } from 'vitest'
import type { ParsedChunk, ParseJob } from './parse-thread/parse-chunks'
import { restAfter } from './read-ahead'

const job: ParseJob = { source: 'codex', path: '/c/rollout.jsonl', start: 900, parserState: null, before: [{ path: '/s/1.jsonl', start: 0 }, { path: '/s/2.jsonl', start: 800 }] }
const chunk = (end: number, segment?: string): ParsedChunk => ({ records: [], start: 0, end, lines: 1, parserStateJson: '{"n":1}', head: '', tail: '', stat: { dev: 1, ino: 1, size: end, mtimeMs: 0 }, complete: false, ...(segment ? { segment } : {}) })

describe('what a stopped parse thread leaves of a job', () => {
  it('after a chunk of a segment: the rest of it, the later segments, then the file from its start', () => {
    expect(restAfter(job, chunk(5000, '/s/1.jsonl'))).toEqual({ ...job, parserState: { n: 1 }, before: [{ path: '/s/1.jsonl', start: 5000 }, { path: '/s/2.jsonl', start: 800 }] })
    expect(restAfter(job, chunk(9000, '/s/2.jsonl'))).toEqual({ ...job, parserState: { n: 1 }, before: [{ path: '/s/2.jsonl', start: 9000 }] })
  })

  it('after a chunk of the file: the rest of the file only', () => {
    expect(restAfter(job, chunk(7000))).toEqual({ ...job, start: 7000, parserState: { n: 1 }, before: [] })
  })
})
