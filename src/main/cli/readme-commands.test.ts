import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageRoot } from '../agent-hooks/retrace-command'
import { USAGE } from './usage'

const README = readFileSync(join(packageRoot(), 'README.md'), 'utf8')

/** Every line of the README's shell blocks. */
function shellLines(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((match) => (match[1] ?? '').split('\n')).filter((line) => line.trim() !== '')
}

describe('the README\'s commands', () => {
  it('are written `retrace …` (on the PATH after set-up), never `npx retrace`, which would fetch npm\'s unrelated `retrace` package', () => {
    expect(README).not.toMatch(/npx retrace\b/)
    expect(shellLines(README)).toContain('npm install -g .   # puts `retrace` on the PATH: a link to this folder (as `npm link` does)')
  })

  it('each name a command `retrace help` lists', () => {
    const commands = shellLines(README)
      .map((line) => /^retrace ([a-z-]+)/.exec(line)?.[1])
      .filter((command): command is string => command !== undefined)
    expect(commands.length).toBeGreaterThan(30)
    const unknown = [...new Set(commands)].filter((command) => !USAGE.includes(`retrace ${command} `) && !USAGE.includes(`retrace ${command}\n`))
    expect(unknown).toEqual([])
  })
})
