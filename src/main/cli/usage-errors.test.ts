import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../testing/temp-runtime'
import { runCli } from './main'
import { COMMANDS } from './table'
import { OPTIONS, type OptionName } from './table/options'
import type { CommandSpec } from './table/spec'

/** A message a person reads: one or more sentences, no stack trace. */
const SENTENCE = /^retrace: [A-Z`"-][\s\S]*[.)]$/

describe('usage errors exit 2 with a sentence (R40)', () => {
  let dataDir: ReturnType<typeof tempDir>
  let err: string[]
  const io = { out: () => undefined, err: (text: string) => err.push(text) }
  const run = async (...args: string[]) => ({ code: await runCli([...args, '--data-dir', dataDir.path], io, {}), err: err.join('\n') })

  beforeEach(() => {
    dataDir = tempDir()
    err = []
  })
  afterEach(() => dataDir.dispose())

  it.each([
    [['rewind', 'abcd1234'], '--turn'],
    [['rewind', 'abcd1234', '--turn', '0'], '--turn must be a whole number from 1'],
    [['diff', 'abcd1234', '--file', 'a.txt'], '--turn'],
    [['hooks', 'install', '--agent', 'windsurf'], '--agent must be one of'],
    [['hooks', 'status', '--agent', 'windsurf'], '--agent must be one of'],
    [['hooks', 'frobnicate'], '`retrace hooks install`, `retrace hooks uninstall` or `retrace hooks status`'],
    [['hooks', 'install', '--scope', 'global'], '--scope must be user or project'],
    [['import', '--all', '--source', 'windsurf'], '--source must be'],
    [['doctor', '--set-claude-retention', 'abc'], '--set-claude-retention must be'],
    [['continue', 'abcd1234', '--in', 'vim'], '--in must be claude-code or codex'],
    [['merge', 'abcd1234', '--mode', 'sideways'], '--mode must be append or replace'],
    [['restore', 'a.txt', '--change', 'x'], '--change must be a whole number from 1'],
    [['rewind', 'abcd1234', '--turn', '1', '--on-conflict', 'maybe'], '--on-conflict must be skip, overwrite or keep-both']
  ])('retrace %j: exit 2, naming %s', async (args, named) => {
    const { code, err: message } = await run(...args)
    expect(message).toContain(named)
    expect(message).toMatch(SENTENCE)
    expect(code).toBe(2)
  })

  /** Arguments and required options that pass the table's checks, so that only the one thing tried is wrong. */
  const validLine = (spec: CommandSpec): string[] => [
    spec.name,
    ...spec.args.filter((arg) => arg.required).map((arg) => arg.choices?.[0] ?? 'abcd1234'),
    ...(spec.requires ?? []).flatMap((name) => [`--${name}`, name === 'turn' ? '1' : 'a.txt'])
  ]
  const rejects = (name: OptionName): boolean => {
    const option = OPTIONS[name]
    if (option.kind !== 'value') return false
    try {
      option.parse('%bad%', name)
      return false
    } catch {
      return true
    }
  }

  describe.each(COMMANDS.map((spec) => [spec.name, spec] as const))('retrace %s', (_name, spec) => {
    it('refuses an option it does not take, naming it', async () => {
      const { code, err: message } = await run(...validLine(spec), '--no-such-option')
      expect(message).toContain('has no option --no-such-option')
      expect(message).toMatch(SENTENCE)
      expect(code).toBe(2)
    })

    it.runIf(spec.args.some((arg) => arg.required) || (spec.requires ?? []).length > 0)('refuses a line missing what it needs', async () => {
      const { code, err: message } = await run(spec.name)
      expect(message).toMatch(/^retrace: (Missing |Use )/)
      expect(message).toMatch(SENTENCE)
      expect(code).toBe(2)
    })

    it.runIf(spec.args.length === 0 || spec.args.every((arg) => !arg.rest))('refuses an argument too many', async () => {
      const line = [...validLine(spec), ...spec.args.map((arg) => arg.choices?.[0] ?? 'abcd1234').slice(spec.args.filter((arg) => arg.required).length), 'stray-word']
      const { code, err: message } = await run(...line)
      expect(message).toContain('Unexpected "stray-word"')
      expect(message).toMatch(SENTENCE)
      expect(code).toBe(2)
    })

    it.each(spec.options.filter(rejects))('refuses a bad --%s, naming it', async (name) => {
      const { code, err: message } = await run(...validLine(spec), `--${name}`, '%bad%')
      expect(message).toContain(`--${name} must be`)
      expect(message).toContain('"%bad%"')
      expect(message).toMatch(SENTENCE)
      expect(code).toBe(2)
    })

    it.each(spec.options.filter((name) => OPTIONS[name].kind !== 'flag'))('refuses --%s without its value', async (name) => {
      const { code, err: message } = await run(...validLine(spec), `--${name}`)
      expect(message).toContain(`--${name} needs a value`)
      expect(message).toMatch(SENTENCE)
      expect(code).toBe(2)
    })

    it.each(spec.options.filter((name) => OPTIONS[name].kind === 'flag'))('refuses a value given to the flag --%s', async (name) => {
      const { code, err: message } = await run(...validLine(spec), `--${name}=yes`)
      expect(message).toContain(`--${name} takes no value`)
      expect(code).toBe(2)
    })
  })

  it("lets an agent's hook line through whatever it holds: `checkpoint --hook` exits 0 and logs what is wrong", async () => {
    const code = await runCli(['checkpoint', 'begin', '--hook', 'claude-code', '--no-such-option', '--data-dir', dataDir.path], io, {}, undefined, { payload: {} })
    expect(code).toBe(0)
  })
})
