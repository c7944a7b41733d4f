import { cpSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FIXTURES } from '../../testing/claude-home'

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

/** Every file under a folder with its size, time and hash: equal before and after = nothing written there. */
export { folderListing as listing } from '../../testing/folder-listing'
