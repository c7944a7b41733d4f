import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FIXTURES } from '../testing/claude-home'
import { codeBuddyAdapter } from './adapter'

const HOME = join(FIXTURES, 'code-buddy/home')
const PROJECT = '/home/sam/projects/ledger-api'

describe('finding Code Buddy histories', () => {
  let dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    dirs = []
  })
  const temp = () => {
    const dir = mkdtempSync(join(tmpdir(), 'retrace-code-buddy-discover-'))
    dirs.push(dir)
    return dir
  }

  it('looks in CODEBUDDY_HOME, else ~/.codebuddy', () => {
    expect(codeBuddyAdapter.roots({ HOME: '/home/sam' })).toEqual(['/home/sam/.codebuddy'])
    expect(codeBuddyAdapter.roots({ HOME: '/home/sam', CODEBUDDY_HOME: '/srv/buddy' })).toEqual(['/srv/buddy'])
  })

  it('gives a workspace the sessions recorded in it (with their branches), and nothing to another folder', async () => {
    const [file] = await codeBuddyAdapter.discover(PROJECT, [HOME])
    expect(file).toMatchObject({ source: 'code-buddy', path: join(HOME, 'sessions'), cwd: PROJECT })
    const { sessions, problems } = await codeBuddyAdapter.read(file as never)
    expect(problems).toEqual([])
    // The 4 session files and the zod session's 4 branches; `branches/default` has no session, so no workspace but the home's.
    expect(sessions.map((session) => session.key).sort()).toEqual(
      [
        'session_mm91f30o_p0x7me',
        'session_mmnjibok_k3v9qa',
        'session_mmnm6m95_w2c8ru',
        'session_mmtd3yd4_b6t1zn',
        'session_mmnjibok_k3v9qa/main',
        'session_mmnjibok_k3v9qa/branch_mmnjo3hc_h7d2lq',
        'session_mmnjibok_k3v9qa/branch_mmnjsf0d_x0c4re',
        'session_mmnjibok_k3v9qa/branch_mmnjyi16_n5g8tw'
      ].sort()
    )
    expect(await codeBuddyAdapter.discover('/home/sam/projects/other', [HOME])).toEqual([])
  })

  it('gives the home itself all its sessions, and import --all puts them in the home folder', async () => {
    const [home] = await codeBuddyAdapter.discover(HOME, ['/nonexistent/.codebuddy'])
    expect((await codeBuddyAdapter.read(home as never)).sessions).toHaveLength(9)
    const all = await codeBuddyAdapter.discoverAll([HOME, '/nonexistent/.codebuddy'])
    expect(all.map((file) => [file.path, file.cwd])).toEqual([[join(HOME, 'sessions'), HOME]])
  })

  it('fingerprints the session and branch files, not the lock files', async () => {
    const home = join(temp(), '.codebuddy')
    cpSync(HOME, home, { recursive: true })
    const fingerprint = async () => (await codeBuddyAdapter.discover(home, []))[0]?.fingerprint
    const first = await fingerprint()
    writeFileSync(join(home, 'sessions/session_mm91f30o_p0x7me.json.lock'), '{"pid":1}')
    expect(await fingerprint()).toBe(first)
    const branch = join(home, 'branches/default/main.json')
    writeFileSync(branch, readFileSync(branch, 'utf8').replace('Main conversation', 'Main'))
    expect(await fingerprint()).not.toBe(first)
  })

  it('finds exported sessions at the top of a workspace, not exportToJson copies or other JSON', async () => {
    const project = temp()
    cpSync(join(FIXTURES, 'code-buddy/exports'), project, { recursive: true })
    writeFileSync(join(project, 'package.json'), '{"version": "1.0.0", "name": "x"}')
    mkdirSync(join(project, 'nested'))
    cpSync(join(FIXTURES, 'code-buddy/exports/session-export.json'), join(project, 'nested/session-export.json'))
    expect(readdirSync(project).sort()).toEqual(['codebuddy-session-session_.json', 'nested', 'package.json', 'session-export.json'])
    const files = await codeBuddyAdapter.discover(project, [])
    expect(files.map((file) => file.path)).toEqual([join(project, 'session-export.json')])
  })
})
