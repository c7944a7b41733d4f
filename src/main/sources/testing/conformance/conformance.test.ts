import { describe, expect, it } from 'vitest'
import { importTestbed } from '../import-testbed'
import { conformanceSets, type ConformanceCase } from './corpus'
import type { Figures } from './figures'
import { importSet } from './import-set'

/**
 * Figures that other work on issue 24 changes (Claude Code in-session forks as branches, every
 * sub-agent in its place, Codex turns from real prompts). Each set's expected.json lists them as
 * `pending` with the figure counted independently; they run as todos until their item is named
 * here, and then replace Retrace's current figure in the comparison. See docs/conformance.md.
 */
const TURNED_ON = new Set<string>([
  'item 1', // Claude Code in-session forks become branch sessions
  'item 2', // every sub-agent in its place
  'item 3', // Codex: a turn is a real prompt (event_msg user_message)
  'bug: LangGraph cached input counted twice'
])

const testbed = importTestbed('retrace-conformance-')
const imported = new Map<string, Promise<Figures>>()

/** Each case is imported once; its figures serve every test of the case. */
function figuresOf(set: string, c: ConformanceCase): Promise<Figures> {
  const key = `${set}/${c.name}`
  let figures = imported.get(key)
  if (!figures) {
    figures = importSet(set, c.layout, testbed).then((result) => result.figures)
    imported.set(key, figures)
  }
  return figures
}

const pick = (figures: Figures, keys: string[]) => Object.fromEntries(keys.map((key) => [key, figures[key as keyof Figures]]))

describe.each(conformanceSets())('conformance set $set', ({ set, cases, independent }) => {
  for (const c of cases) {
    // A figure whose value other work changes is compared with the plain count by its pending test only.
    const changing = new Set<string>((c.pending ?? []).map((p) => p.figure))

    it(`${c.name}: Retrace's figures after a real import`, async () => {
      const figures = await figuresOf(set, c)
      const current = Object.keys(c.retrace).filter((key) => !(c.pending ?? []).some((p) => p.figure === key && TURNED_ON.has(p.item)))
      expect(pick(figures, current)).toEqual(pick(c.retrace as Figures, current))
      // Where Retrace already agrees with the plain count of the files, it must keep agreeing.
      for (const key of c.agrees ?? []) {
        if (changing.has(key)) continue
        expect(figures[key as keyof Figures], `${key}: Retrace vs the independent count`).toEqual(independent[key])
      }
    }, 120_000)

    for (const p of c.pending ?? []) {
      const change = p.expected === undefined ? 'changes, to be measured again' : `becomes ${JSON.stringify(p.expected)}`
      const title = `${c.name}: ${p.figure} ${change} (${p.item}: ${p.why})`
      if (!TURNED_ON.has(p.item)) {
        it.todo(title)
        continue
      }
      if (p.expected === undefined) continue
      it(title, async () => {
        expect((await figuresOf(set, c))[p.figure]).toEqual(p.expected)
      }, 120_000)
    }
  }
})
