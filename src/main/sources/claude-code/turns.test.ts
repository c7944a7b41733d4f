import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MessageRecord, SourceRecord } from '../records'
import { ClaudeHome, FIXTURES } from '../testing/claude-home'
import { importTestbed } from '../testing/import-testbed'
import { createClaudeCodeParser } from './parser'
import { databaseOf } from '../../store/raw-database'

/**
 * Real sessions with slash commands, `!` commands and interruptions, and their turns counted by
 * hand from the raw lines (fixtures/claude-code/claude-code-log-turns/PROVENANCE.txt): typed
 * prompts, `!` commands and commands that prompt the model; not local commands, their output or
 * interruption marks.
 */
const SETS = join(FIXTURES, 'claude-code/claude-code-log-turns')
const CASES = [
  {
    file: '-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl',
    turns: 4,
    localCommands: ['/doctor', '/status', '/mcp'],
    interruptions: 3
  },
  { file: '-Users-dain-workspace-claude-code-log-sample/937c6e6b-27e7-4edd-86f1-ad28f9731841.jsonl', turns: 3, localCommands: ['/clear'], interruptions: 0 },
  { file: '-Users-dain-workspace-JSSoundRecorder/7acd37a8-2745-4b58-a8a9-46164b22ad9e.jsonl', turns: 6, localCommands: [], interruptions: 1 },
  { file: '-src-deep-manifest/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl', turns: 7, localCommands: ['/context', '/model'], interruptions: 1 }
]

function linesOf(path: string): { text: string; offset: number }[] {
  const lines: { text: string; offset: number }[] = []
  let offset = 0
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() !== '') lines.push({ text, offset })
    offset += Buffer.byteLength(text) + 1
  }
  return lines
}

/** The file's records; `cut`: fed to two parsers, the second made from the first's state saved as JSON. */
function parse(path: string, cut?: number): SourceRecord[] {
  const lines = linesOf(path)
  let parser = createClaudeCodeParser()
  const records: SourceRecord[] = []
  lines.forEach((line, index) => {
    if (index === cut) parser = createClaudeCodeParser(JSON.parse(JSON.stringify(parser.state())))
    records.push(...parser.feed(line.text, line.offset))
  })
  return records
}

const messages = (records: SourceRecord[]) => records.filter((r): r is MessageRecord => r.kind === 'message')

describe('Claude Code turns on real sessions', () => {
  for (const { file, turns, localCommands, interruptions } of CASES) {
    it(`${file.split('/')[1]!.slice(0, 8)}: ${turns} turns; local commands and interruption marks are system lines`, () => {
      const list = messages(parse(join(SETS, file)))
      // A turn is a user message and a user message is a turn: the count is what the window heads.
      expect(list.filter((m) => m.startsTurn)).toEqual(list.filter((m) => m.role === 'user'))
      expect(list.filter((m) => m.startsTurn)).toHaveLength(turns)
      const system = list.filter((m) => m.role === 'system')
      expect(system.filter((m) => m.content.startsWith('/')).map((m) => m.content)).toEqual(localCommands)
      expect(system.filter((m) => m.content.startsWith('[Request interrupted by user'))).toHaveLength(interruptions)
    })
  }

  it('knows a local command when the import stopped between it and its caveat', () => {
    const path = join(SETS, CASES[0]!.file)
    const whole = parse(path)
    for (let cut = 0; cut <= linesOf(path).length; cut++) expect(parse(path, cut), `cut at line ${cut}`).toEqual(whole)
  })

  it('keeps a command that prompts the model (/init, then its expansion) as a turn', () => {
    const list = messages(parse(join(SETS, CASES[2]!.file)))
    expect(list.find((m) => m.content === '/init')).toMatchObject({ role: 'user', startsTurn: true })
  })

  it('keeps a `!` command that hangs below the caveat as a turn, the /clear beside it not', () => {
    const list = messages(parse(join(SETS, CASES[1]!.file)))
    expect(list.filter((m) => m.startsTurn).map((m) => m.content)).toEqual(['! uv run ty check', 'Please fix these lint errors', expect.any(String)])
  })
})

const { tempDir, runtime } = importTestbed()

describe('Claude Code turns once imported', () => {
  it('gives each session the turn count the window draws headers for', async () => {
    const home = new ClaudeHome(join(tempDir(), 'claude'))
    for (const project of readdirSync(SETS, { withFileTypes: true }).filter((e) => e.isDirectory())) {
      const first = readdirSync(join(SETS, project.name)).find((name) => name.endsWith('.jsonl'))!
      const cwd = readFileSync(join(SETS, project.name, first), 'utf8')
        .split('\n')
        .map((line) => (line ? (JSON.parse(line) as { cwd?: string }).cwd : undefined))
        .find((value) => value !== undefined)!
      home.addFixtureProject(join(SETS, project.name), cwd)
    }
    const rt = runtime({ claude: home.root })
    await rt.imports.importAll()
    const rows = databaseOf(rt.store)
      .prepare(
        `SELECT substr(s.source_session_id, 1, 8) AS id, s.turn_count AS turns,
                (SELECT count(DISTINCT m.turn) FROM messages m WHERE m.session_id = s.id AND m.turn > 0) AS headers,
                (SELECT count(*) FROM messages m WHERE m.session_id = s.id AND m.role = 'user') AS prompts
         FROM sessions s WHERE s.kind = 'main' ORDER BY id`
      )
      .all()
    expect(rows).toEqual([
      { id: '0d3a8e6f', turns: 4, headers: 4, prompts: 4 },
      { id: '7acd37a8', turns: 6, headers: 6, prompts: 6 },
      { id: '937c6e6b', turns: 3, headers: 3, prompts: 3 },
      { id: 'a7da6a22', turns: 7, headers: 7, prompts: 7 }
    ])
  })
})
