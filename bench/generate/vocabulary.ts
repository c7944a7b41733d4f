import { createRng, type Rng } from '../lib/prng'

// Words the generated text is made of. Real words take the top ranks (so "common" search terms
// are real words found in a large share of messages); syllable-built words fill a long tail so
// the full-text index has a realistic vocabulary size.
const TOP_WORDS = `the to of and a in is it that for this you with on be as are we file not can if or an
function test should will by from at error code return value type use change need there which when
so line new call data now add run build check make update first also then all set case but one
name path module config import export string number result object list state server client request
response cache database query index table migration session message user model token output input
event handler render component store value default option version release branch commit merge fix
bug issue log warning debug trace stack frame thread process memory disk network socket timeout retry
invalidation schema column row transaction lock write read open close start stop init load save parse`
  .split(/\s+/)
  .filter(Boolean)

const SYLLABLES = `ka lo mi ter zon pra vel dun qua sir nem tob fex gli hau ros pel mab cri tus yon wer
dal ben sko fim rap lut ges noc vir bla pom tek zur hin mol dre fas gum jor kel`
  .split(/\s+/)
  .filter(Boolean)

/** A word appearing in about 1 message in 20,000: the "rare" search term. */
export const RARE_WORD = 'quokka'

export interface Vocabulary {
  /** A word drawn with Zipf-like frequencies (rank r has weight 1/r). */
  word(rng: Rng): string
  /** A syllable-built word drawn uniformly from the tail (for file names and identifiers). */
  tailWord(rng: Rng): string
}

export function createVocabulary(seed: number, tailSize = 30_000): Vocabulary {
  const rng = createRng(seed)
  const seen = new Set(TOP_WORDS)
  const tail: string[] = []
  while (tail.length < tailSize) {
    const parts = rng.int(2, 4)
    let word = ''
    for (let i = 0; i < parts; i++) word += rng.pick(SYLLABLES)
    if (!seen.has(word) && word !== RARE_WORD) {
      seen.add(word)
      tail.push(word)
    }
  }
  const words = [...TOP_WORDS, ...tail]
  // Cumulative 1/rank weights; a draw is a binary search in this table.
  const cumulative = new Float64Array(words.length)
  let total = 0
  words.forEach((_, rank) => {
    total += 1 / (rank + 1)
    cumulative[rank] = total
  })
  return {
    word(draw) {
      const target = draw.next() * total
      let low = 0
      let high = words.length - 1
      while (low < high) {
        const mid = (low + high) >>> 1
        if ((cumulative[mid] ?? 0) < target) low = mid + 1
        else high = mid
      }
      return words[low] ?? 'the'
    },
    tailWord: (draw) => draw.pick(tail)
  }
}

/** Sentences from `pool` until at least `bytes` long: prose of about a given size. */
export function paragraphOf(rng: Rng, pool: readonly string[], bytes: number): string {
  const parts: string[] = []
  let length = 0
  while (length < bytes) {
    const sentence = rng.pick(pool)
    parts.push(sentence)
    length += sentence.length + 1
  }
  return parts.join(' ')
}

/** A source-like path, `src/<word>/<word>.ts`. */
export function sourcePath(rng: Rng, vocabulary: Vocabulary): string {
  return `src/${vocabulary.tailWord(rng)}/${vocabulary.tailWord(rng)}.ts`
}
