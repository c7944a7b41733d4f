import { createRng, type Rng } from '../lib/prng'
import { RARE_WORD, createVocabulary, paragraphOf, sourcePath, type Vocabulary } from './vocabulary'

// Message texts. Building every message word by word would make generation slower than the
// writes being measured, so texts are assembled from a fixed pool of generated sentences, with
// per-message identifiers (paths, hashes, line numbers) mixed in so the index still grows a
// realistic number of distinct terms.

const POOL_SIZE = 8192
const TOOL_NAMES = ['Read', 'Edit', 'Bash', 'Grep', 'Write'] as const
export type ToolName = (typeof TOOL_NAMES)[number]

export class ContentFactory {
  private readonly vocabulary: Vocabulary
  private readonly sentences: string[]

  constructor(seed: number) {
    this.vocabulary = createVocabulary(seed)
    const rng = createRng(seed + 1)
    this.sentences = Array.from({ length: POOL_SIZE }, () => this.sentence(rng))
  }

  /** A user prompt: one to three sentences, sometimes naming a file (50–400 bytes). */
  prompt(rng: Rng): string {
    const text = paragraphOf(rng, this.sentences, rng.int(60, 300))
    return rng.chance(0.4) ? `${text} See ${sourcePath(rng, this.vocabulary)}.` : text
  }

  /** Prose of roughly `bytes` bytes; 1 in 20,000 carries the rare search word. */
  prose(rng: Rng, bytes: number): string {
    const text = paragraphOf(rng, this.sentences, bytes)
    return rng.chance(1 / 20_000) ? `${text} The ${RARE_WORD} case is handled.` : text
  }

  toolName(rng: Rng): ToolName {
    return rng.pick(TOOL_NAMES)
  }

  /** The JSON input of a tool call, shaped like a coding agent's (100 bytes – 1.5 KB). */
  toolInput(rng: Rng, tool: ToolName): Record<string, string | number | boolean> {
    switch (tool) {
      case 'Read':
        return { file_path: sourcePath(rng, this.vocabulary), offset: rng.int(1, 900), limit: 200 }
      case 'Edit':
        return { file_path: sourcePath(rng, this.vocabulary), old_string: this.code(rng, rng.int(80, 600)), new_string: this.code(rng, rng.int(80, 700)), replace_all: false }
      case 'Bash':
        return { command: `npm run ${this.vocabulary.word(rng)} -- --filter ${this.vocabulary.tailWord(rng)}`, description: paragraphOf(rng, this.sentences, 60), timeout: 120000 }
      case 'Grep':
        return { pattern: `${this.vocabulary.word(rng)}\\s+${this.vocabulary.tailWord(rng)}`, path: sourcePath(rng, this.vocabulary), output_mode: 'content' }
      case 'Write':
        return { file_path: sourcePath(rng, this.vocabulary), content: this.code(rng, rng.int(300, 1400)) }
    }
  }

  /** A tool's output: numbered source lines or command output (0.5–4 KB). */
  toolResult(rng: Rng, tool: ToolName): string {
    if (tool === 'Bash') return `$ exit ${rng.chance(0.1) ? 1 : 0}\n${this.code(rng, rng.int(300, 2500))}`
    return this.code(rng, rng.int(500, 4000))
  }

  callId(rng: Rng): string {
    return `toolu_${Math.floor(rng.next() * 2 ** 48).toString(36)}${Math.floor(rng.next() * 2 ** 30).toString(36)}`
  }


  /** Lines that look like source or logs: `123  identifier.word(path) // sentence`. */
  private code(rng: Rng, bytes: number): string {
    const lines: string[] = []
    let length = 0
    let lineNo = rng.int(1, 800)
    while (length < bytes) {
      const line = `${lineNo}\t${this.vocabulary.tailWord(rng)}.${this.vocabulary.word(rng)}(${this.hash(rng)}) // ${rng.pick(this.sentences)}`
      lines.push(line)
      length += line.length + 1
      lineNo += 1
    }
    return lines.join('\n')
  }


  /** Short hex ids from a space of ~1M values: many distinct terms, but not one per line of text. */
  private hash(rng: Rng): string {
    return rng.int(0, 0xfffff).toString(16).padStart(5, '0')
  }

  private sentence(rng: Rng): string {
    const count = rng.int(6, 18)
    const words: string[] = []
    for (let i = 0; i < count; i++) words.push(this.vocabulary.word(rng))
    const text = words.join(' ')
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
  }
}
