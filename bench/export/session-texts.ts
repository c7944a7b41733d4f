import { ContentFactory } from '../generate/content'
import { createRng } from '../lib/prng'
import { createFakeSecrets, plantInto, plantedSecrets, type FakeSecret } from '../../src/main/export/redaction/testing/fake-secrets'
import type { ScanInput } from '../../src/main/export/redaction'

// The strings an export of one long session hands the redaction scan: the title, each
// prompt and answer, each tool call's input as JSON text and the file it names, each tool
// result. Content comes from the store benchmark's generator (same seed, same texts every run).

export interface BenchSession {
  texts: ScanInput[]
  planted: FakeSecret[]
  bytes: number
}

export function generateSessionTexts(options: { messages: number; secretSets: number; seed: number }): BenchSession {
  const content = new ContentFactory(options.seed)
  const rng = createRng(options.seed + 7)
  const texts: ScanInput[] = []
  const add = (label: string, text: string): void => void texts.push({ place: { id: `t${texts.length}`, label }, text })
  add('session title', content.prompt(rng).slice(0, 80))
  let turn = 0
  for (let message = 0; message < options.messages; message++) {
    // A turn: the prompt, then alternating answers and tool calls with their results.
    if (message % 8 === 0) {
      turn++
      add(`turn ${turn} · prompt`, content.prompt(rng))
    } else if (message % 2 === 1) {
      add(`turn ${turn} · answer`, content.prose(rng, rng.int(80, 1500)))
    } else {
      const tool = content.toolName(rng)
      const input = content.toolInput(rng, tool)
      add(`turn ${turn} · tool input (${tool})`, JSON.stringify(input))
      if (typeof input.file_path === 'string') add(`turn ${turn} · file name`, input.file_path)
      add(`turn ${turn} · tool result (${tool})`, content.toolResult(rng, tool))
    }
  }
  // Each set is one secret of every kind the engine finds, planted at random places.
  const planted = Array.from({ length: options.secretSets }, (_, set) => plantedSecrets(createFakeSecrets(options.seed + set))).flat()
  // One secret a text: planted into a text that holds one already, a snippet can land inside
  // the other (a line break in a PEM key) and cut it in two.
  const holding = new Set<ScanInput>()
  for (const secret of planted) {
    let target = rng.pick(texts)
    while (holding.has(target)) target = rng.pick(texts)
    holding.add(target)
    target.text = plantInto(target.text, secret.text, rng.next())
  }
  const bytes = texts.reduce((sum, input) => sum + Buffer.byteLength(input.text), 0)
  return { texts, planted, bytes }
}
