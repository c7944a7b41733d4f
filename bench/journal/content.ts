import { createCipheriv, createHash } from 'node:crypto'
import { createVocabulary, type Vocabulary } from '../generate/vocabulary'
import type { Rng } from '../lib/prng'

// File contents of the generated workspace, all derived from seeds so every run (and both
// sides of every comparison) sees the same bytes. Three kinds, because storage and capture cost
// depend on how compressible content is: source-like text, structured binary that compresses
// well (databases, indexes), and random bytes that do not compress at all (images, archives).

export type ContentKind = 'text' | 'structured' | 'random'

const LINE_POOL = 4096

/**
 * Deterministic incompressible bytes: an AES-128-CTR keystream keyed by the seed. Native speed
 * (a PRNG in JS would dominate generating 1 GB), and as random as gzip or zlib can tell.
 */
export function randomBytes(seed: string, size: number): Buffer {
  const key = createHash('sha256').update(`retrace-bench:${seed}`).digest()
  const cipher = createCipheriv('aes-128-ctr', key.subarray(0, 16), key.subarray(16, 32))
  return cipher.update(Buffer.alloc(size))
}

/**
 * Fixed-size records like a database page or an index: a counter, a timestamp that moves in
 * small steps, a value from a short list and a tag. zlib gets roughly 4–6× on it.
 */
export function structuredBytes(rng: Rng, size: number): Buffer {
  const out = Buffer.alloc(size)
  const tags = ['user____', 'order___', 'invoice_', 'session_'].map((tag) => Buffer.from(tag))
  let id = rng.int(0, 1_000_000)
  let time = 1_700_000_000 + rng.int(0, 10_000_000)
  for (let at = 0; at + 32 <= size; at += 32) {
    out.writeUInt32LE(id++, at)
    out.writeUInt32LE((time += rng.int(0, 90)), at + 4)
    out.writeDoubleLE(rng.int(0, 15) * 2.5, at + 8)
    rng.pick(tags).copy(out, at + 16)
    if (rng.chance(0.1)) out.writeUInt32LE(rng.int(0, 0xffffffff), at + 24) // the rest stays zero padding
  }
  return out
}

/** Source-like text assembled from a pool of generated lines (word by word would be too slow for 70 MB). */
export class TextFactory {
  private readonly vocabulary: Vocabulary
  private readonly lines: string[]

  constructor(seed: number, rng: Rng) {
    this.vocabulary = createVocabulary(seed)
    this.lines = Array.from({ length: LINE_POOL }, () => this.line(rng))
  }

  /** About `size` bytes of code-like text (exactly `size`: cut at the end), headed by its own path so no two files are equal. */
  source(rng: Rng, path: string, size: number): Buffer {
    const parts = [`// ${path}\n`]
    let length = parts[0]?.length ?? 0
    let depth = 0
    while (length < size) {
      depth = Math.max(0, Math.min(4, depth + rng.int(-1, 1)))
      const line = `${'  '.repeat(depth)}${rng.pick(this.lines)}${rng.chance(0.05) ? ` // ${rng.int(1, 99_999)}` : ''}\n`
      parts.push(line)
      length += line.length
    }
    return Buffer.from(parts.join('')).subarray(0, size)
  }

  /** A folder name. */
  name(rng: Rng): string {
    return this.vocabulary.tailWord(rng)
  }

  /** One line a person might add in an edit. */
  editLine(rng: Rng, round: number): string {
    return `// round ${round}: ${this.line(rng)}\n`
  }

  private line(rng: Rng): string {
    const w = () => this.vocabulary.word(rng)
    const id = () => `${this.vocabulary.tailWord(rng)}${rng.chance(0.5) ? w().replace(/^./, (c) => c.toUpperCase()) : ''}`
    switch (rng.int(0, 5)) {
      case 0:
        return `const ${id()} = ${id()}(${id()}, ${rng.int(0, 999)})`
      case 1:
        return `if (${id()}.${w()} === '${w()}') return ${id()}`
      case 2:
        return `export function ${id()}(${id()}: ${w()}, ${id()}: number): ${w()} {`
      case 3:
        return `// ${w()} ${w()} ${w()} ${w()} ${w()} ${w()}`
      case 4:
        return `await this.${id()}.${w()}({ ${w()}: ${id()}, ${w()}: ${rng.int(0, 9)} })`
      default:
        return '}'
    }
  }
}

/**
 * The edit a round makes to a file: text gets a line inserted at a line break, binary gets 64
 * bytes overwritten in place (same size, as when a record changes). Pure function of its inputs,
 * so a round can put exactly the same bytes back after a rewind.
 */
export function editContent(kind: ContentKind, content: Buffer, rng: Rng, text: TextFactory, round: number): Buffer {
  if (kind === 'text') {
    const newline = content.indexOf(0x0a, rng.int(0, Math.max(0, content.length - 1)))
    const at = newline < 0 ? content.length : newline + 1
    return Buffer.concat([content.subarray(0, at), Buffer.from(text.editLine(rng, round)), content.subarray(at)])
  }
  const edited = Buffer.from(content)
  const patch = Buffer.from(Array.from({ length: Math.min(64, edited.length) }, () => rng.int(0, 255)))
  patch.copy(edited, rng.int(0, edited.length - patch.length))
  return edited
}
