import type { AppendMessage } from '../../src/main/transcripts/recorder-schemas'
import { createVocabulary, paragraphOf, sourcePath, type Vocabulary } from '../generate/vocabulary'
import { createRng, type Rng } from '../lib/prng'

// What a coding agent's transcript looks like to the renderer: prompts, Markdown answers with
// headings, lists, tables and fenced code (highlighted by the window), reasoning, and tool calls
// with their results (source listings, command output). Seeded, so every run draws the same.

const MODEL = 'claude-sonnet-4-5'
const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'Write'] as const
type Tool = (typeof TOOLS)[number]

const LANGUAGES = ['ts', 'python', 'bash', 'json', 'sql'] as const

export class UiContent {
  private readonly vocabulary: Vocabulary
  private readonly sentences: string[]

  constructor(seed: number) {
    this.vocabulary = createVocabulary(seed)
    const rng = createRng(seed + 1)
    this.sentences = Array.from({ length: 4096 }, () => this.sentence(rng))
  }

  /**
   * One agent turn: a prompt, 1–5 tool rounds (some with reasoning or a remark before the
   * call), a Markdown answer. `clock` advances with every message.
   */
  turn(rng: Rng, clock: { now: number }): AppendMessage[] {
    const tick = (): number => (clock.now += rng.int(2_000, 40_000))
    const messages: AppendMessage[] = [{ role: 'user', content: this.prompt(rng), createdAt: tick() }]
    const rounds = rng.int(1, 5)
    for (let round = 0; round < rounds; round++) {
      if (rng.chance(0.35)) messages.push({ role: 'reasoning', content: paragraphOf(rng, this.sentences, rng.int(200, 900)), createdAt: tick() })
      if (rng.chance(0.25)) messages.push(this.assistant(rng, paragraphOf(rng, this.sentences, rng.int(60, 240)), tick()))
      const tool = rng.pick(TOOLS)
      const toolCallId = `toolu_${Math.floor(rng.next() * 2 ** 48).toString(36)}${round}`
      messages.push({ role: 'tool_call', content: '', toolName: tool, toolCallId, toolInput: this.toolInput(rng, tool), model: MODEL, createdAt: tick() })
      messages.push({ role: 'tool_result', content: this.toolResult(rng, tool), toolName: tool, toolCallId, isError: rng.chance(0.04), createdAt: tick() })
    }
    messages.push(this.assistant(rng, this.answer(rng), tick()))
    return messages
  }

  /** A short session's title-worthy first prompt. */
  prompt(rng: Rng): string {
    const text = paragraphOf(rng, this.sentences, rng.int(40, 260))
    return rng.chance(0.4) ? `${text} See \`${sourcePath(rng, this.vocabulary)}\`.` : text
  }

  private assistant(rng: Rng, content: string, createdAt: number): AppendMessage {
    return {
      role: 'assistant',
      content,
      model: MODEL,
      createdAt,
      usage: { inputTokens: rng.int(2_000, 150_000), outputTokens: rng.int(50, 4_000), cacheReadTokens: rng.int(0, 100_000), cacheWriteTokens: rng.int(0, 5_000) }
    }
  }

  /** A Markdown answer: a lead paragraph, then some of a list, a code block, a table, a heading. */
  private answer(rng: Rng): string {
    const parts = [paragraphOf(rng, this.sentences, rng.int(120, 500))]
    if (rng.chance(0.5)) parts.push(Array.from({ length: rng.int(2, 5) }, () => `- **${this.word(rng)}**: ${paragraphOf(rng, this.sentences, rng.int(30, 120))} (\`${this.identifier(rng)}\`)`).join('\n'))
    if (rng.chance(0.6)) {
      const language = rng.pick(LANGUAGES)
      parts.push(`\`\`\`${language}\n${this.code(rng, language, rng.int(4, 24))}\n\`\`\``)
    }
    if (rng.chance(0.15)) {
      const rows = Array.from({ length: rng.int(2, 5) }, () => `| \`${this.identifier(rng)}\` | ${rng.int(1, 999)} | ${paragraphOf(rng, this.sentences, 30)} |`)
      parts.push(['| name | count | note |', '|---|---:|---|', ...rows].join('\n'))
    }
    if (rng.chance(0.3)) parts.push(`### ${this.word(rng)} ${this.word(rng)}\n\n${paragraphOf(rng, this.sentences, rng.int(80, 300))}`)
    return parts.join('\n\n')
  }

  private toolInput(rng: Rng, tool: Tool): Record<string, string | number | boolean> {
    switch (tool) {
      case 'Read':
        return { file_path: sourcePath(rng, this.vocabulary), offset: rng.int(1, 900), limit: 200 }
      case 'Edit':
        return { file_path: sourcePath(rng, this.vocabulary), old_string: this.code(rng, 'ts', rng.int(1, 6)), new_string: this.code(rng, 'ts', rng.int(1, 8)), replace_all: false }
      case 'Bash':
        return { command: `npm run ${this.word(rng)} -- --filter ${this.vocabulary.tailWord(rng)}`, description: paragraphOf(rng, this.sentences, 40) }
      case 'Grep':
        return { pattern: `${this.word(rng)}\\s+${this.vocabulary.tailWord(rng)}`, path: 'src', output_mode: 'content' }
      case 'Write':
        return { file_path: sourcePath(rng, this.vocabulary), content: this.code(rng, 'ts', rng.int(10, 40)) }
    }
  }

  private toolResult(rng: Rng, tool: Tool): string {
    if (tool === 'Bash') return `> ${this.word(rng)}\n\n${Array.from({ length: rng.int(3, 30) }, (_, i) => `${i % 7 === 6 ? '✖' : '✔'} ${paragraphOf(rng, this.sentences, 40)} (${rng.int(1, 900)}ms)`).join('\n')}`
    if (tool === 'Edit' || tool === 'Write') return `The file ${sourcePath(rng, this.vocabulary)} has been updated.`
    const first = rng.int(1, 800)
    return this.code(rng, 'ts', rng.int(10, 80))
      .split('\n')
      .map((line, i) => `${String(first + i).padStart(6)}→${line}`)
      .join('\n')
  }

  private code(rng: Rng, language: (typeof LANGUAGES)[number], lines: number): string {
    const out: string[] = []
    for (let i = 0; i < lines; i++) {
      const a = this.identifier(rng)
      const b = this.identifier(rng)
      switch (language) {
        case 'python':
          out.push(i % 5 === 0 ? `def ${a}(${b}, limit=${rng.int(1, 100)}):` : `    ${a} = ${b}.get("${this.word(rng)}", ${rng.int(0, 9)})  # ${this.word(rng)}`)
          break
        case 'bash':
          out.push(`${rng.pick(['npm run', 'git', 'ls -la', 'grep -rn'])} ${a} ${rng.chance(0.5) ? `--${b}` : `| wc -l`}`)
          break
        case 'json':
          out.push(`  "${a}": ${rng.chance(0.5) ? rng.int(0, 9999) : `"${b}"`},`)
          break
        case 'sql':
          out.push(i % 4 === 0 ? `SELECT ${a}, count(*) FROM ${b}` : `  WHERE ${a} = ${rng.int(0, 99)} AND ${b} IS NOT NULL`)
          break
        default:
          out.push(i % 6 === 0 ? `export function ${a}(${b}: string, n = ${rng.int(1, 64)}): number {` : `  const ${a} = await ${b}.${this.identifier(rng)}(${rng.int(0, 99)}) // ${this.word(rng)} ${this.word(rng)}`)
      }
    }
    return out.join('\n')
  }


  private sentence(rng: Rng): string {
    const words = Array.from({ length: rng.int(5, 16) }, () => this.word(rng))
    const text = words.join(' ')
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
  }

  private word(rng: Rng): string {
    return this.vocabulary.word(rng)
  }

  private identifier(rng: Rng): string {
    const tail = this.vocabulary.tailWord(rng)
    return rng.chance(0.5) ? `${this.word(rng)}${tail.charAt(0).toUpperCase()}${tail.slice(1)}` : tail
  }

}
