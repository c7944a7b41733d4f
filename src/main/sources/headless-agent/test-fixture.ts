import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { FIXTURES } from '../testing/claude-home'

/** fixtures/headless-agent (see its README.md): an `~/.agent` folder and malformed variants. */
export const HEADLESS_FIXTURE = join(FIXTURES, 'headless-agent')
export const HEADLESS_HOME = join(HEADLESS_FIXTURE, 'home')

/** What fixtures/headless-agent/expected.json says, as far as the tests read it. */
export interface HeadlessExpected {
  totals: { sessions: number; goals: number; events: number; tool_calls: number; tool_results: number; tool_errors: number; checkpoint_files: number; supervision_files: number; memory_keys: number; events_by_type: Record<string, number> }
  sessions: {
    id: string
    workflow_name: string
    status: string
    past_retention: boolean
    goals: number
    goal_ids: string[]
    events: number
    tool_calls: number
    tool_results: number
    tool_errors: number
    tool_calls_without_result: number
    pre_files: number
    post_files: number
    supervision_files: number
    events_by_type: Record<string, number>
  }[]
  malformed: { name: string; sessions: number; events: number }[]
}

export function headlessExpected(): HeadlessExpected {
  return JSON.parse(readFileSync(join(HEADLESS_FIXTURE, 'expected.json'), 'utf8')) as HeadlessExpected
}

/** Copy a fixture folder (the home, or `malformed/<name>`) to `<dir>/<name>`; returns the copy. */
export function copyHome(from: string, dir: string, name = 'agent-home'): string {
  const to = join(dir, name)
  cpSync(from, to, { recursive: true })
  return to
}

/** Every file under a folder with its size and mtime: equal before and after = nothing written there. */
export function listing(root: string): [string, number, number][] {
  const out: [string, number, number][] = []
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      const stats = statSync(path)
      out.push([relative(root, path), stats.isDirectory() ? -1 : stats.size, stats.mtimeMs])
      if (stats.isDirectory()) walk(path)
    }
  }
  walk(root)
  return out
}
