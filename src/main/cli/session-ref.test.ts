import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RetraceError } from '../../shared/contract'
import { tempDir, tempRuntime } from '../testing/temp-runtime'
import { resolveSessionRef } from './session-ref'

describe('resolveSessionRef: what a session argument on the command line may be', () => {
  let rt: ReturnType<typeof tempRuntime>
  let project: ReturnType<typeof tempDir>
  const add = (uid: string, source: string, sourceSessionId: string | null, title: string, createdAt: number) =>
    rt.store.sessions.insert({ uid, workspaceId: rt.store.workspaces.open(project.path, 'p'), source, sourceSessionId, title, kind: 'main', createdAt })
  const resolve = (ref: string) => resolveSessionRef(rt.store.sessions, ref)
  const refusal = (ref: string): RetraceError => {
    try {
      resolve(ref)
    } catch (error) {
      if (error instanceof RetraceError) return error
      throw error
    }
    throw new Error(`"${ref}" was resolved, but should have been refused`)
  }

  beforeEach(() => {
    rt = tempRuntime()
    project = tempDir('retrace-project-')
    add('5f0c1d2e-aaaa-4000-8000-000000000001', 'hooks', 'claude-7e1', 'Hooked turn', 1)
    add('5f0c9999-bbbb-4000-8000-000000000002', 'native', null, 'Recorded here', 2)
    add('a1b2c3d4-cccc-4000-8000-000000000003', 'claude-code', 'shared-id', 'Imported from Claude Code', 3)
    add('e5f6a7b8-dddd-4000-8000-000000000004', 'hooks', 'shared-id', 'The same session, seen by hooks', 4)
    add('aaaa0000-eeee-4000-8000-000000000005', 'codex', 'a1b2c3d4', 'A Codex id that starts like another session', 5)
  })
  afterEach(() => {
    rt.dispose()
    project.dispose()
  })

  it('takes a whole id as it is', () => {
    expect(resolve('5f0c9999-bbbb-4000-8000-000000000002')).toBe('5f0c9999-bbbb-4000-8000-000000000002')
  })

  it("takes the agent's own session id: what a hook passed to `checkpoint --session`", () => {
    expect(resolve('claude-7e1')).toBe('5f0c1d2e-aaaa-4000-8000-000000000001')
  })

  it('takes the start of an id when only one session starts so', () => {
    expect(resolve('5f0c1')).toBe('5f0c1d2e-aaaa-4000-8000-000000000001')
    expect(resolve('e5f6')).toBe('e5f6a7b8-dddd-4000-8000-000000000004')
  })

  it("takes the start of the agent's own session id, as it takes the start of Retrace's", () => {
    expect(resolve('claude-7')).toBe('5f0c1d2e-aaaa-4000-8000-000000000001')
  })

  it("refuses an agent's id that is also the start of another session's Retrace id, listing both: no source silently wins", () => {
    const error = refusal('a1b2c3d4')
    expect(error.message).toContain('could mean 2 sessions')
    expect(error.message).toContain('aaaa0000-eeee-4000-8000-000000000005')
    expect(error.message).toContain('a1b2c3d4-cccc-4000-8000-000000000003')
  })

  it('refuses a start shared by several sessions, listing them rather than guessing', () => {
    const error = refusal('5f0c')
    expect(error.code).toBe('VALIDATION')
    expect(error.message).toContain('could mean 2 sessions')
    expect(error.message).toContain('5f0c1d2e-aaaa-4000-8000-000000000001')
    expect(error.message).toContain('5f0c9999-bbbb-4000-8000-000000000002')
  })

  it('refuses an agent id two sessions share (an imported session and the same one seen by hooks), naming both sources', () => {
    const error = refusal('shared-id')
    expect(error.message).toContain('could mean 2 sessions')
    expect(error.message).toMatch(/claude-code[\s\S]*hooks|hooks[\s\S]*claude-code/)
  })

  it('does not match on fewer than four characters, nor on nothing at all', () => {
    expect(refusal('5f0').code).toBe('NOT_FOUND')
    expect(refusal('no-such-session').message).toContain('No session with id no-such-session')
  })
})
