import { createTwoFilesPatch } from 'diff'
import { describe, expect, it } from 'vitest'
import { applyHunks } from './apply-hunks'

/**
 * The patches are made the way OpenCode's `edit` tool makes `metadata.filediff.patch`: jsdiff's
 * `createTwoFilesPatch(file, file, before, after)`, whose output starts with an `Index:` line, a
 * `====` rule and the `---` / `+++` file names (with a tab when the header is empty), as in a real
 * opencode.db of version 1.17.3 (docs/reliability.md R51).
 */
describe('applying the hunks of a unified diff', () => {
  const file = '/home/build/script.js'
  const before = "// ====================\n// Initialize\n// ====================\ndocument.addEventListener('DOMContentLoaded', () => {\n    initReveal();\n    updateNavbar();\n});\n"
  const after = "// ====================\n// Initialize\n// ====================\ndocument.addEventListener('DOMContentLoaded', () => {\n    initCursor();\n    initReveal();\n    updateNavbar();\n});\n"

  it('reads the file header (Index:, ====, ---, +++) as a header, not as removed and added lines', () => {
    const patch = createTwoFilesPatch(file, file, before, after)
    expect(patch.split('\n').slice(0, 4)).toEqual([`Index: ${file}`, '='.repeat(67), `--- ${file}`, `+++ ${file}`])
    expect(applyHunks(before, patch)).toBe(after)
    // The older form, with a tab after each name (an empty header): `--- file\t`.
    expect(applyHunks(before, createTwoFilesPatch(file, file, before, after, '', ''))).toBe(after)
  })

  it('counts a hunk’s lines from its @@ header: a removed line that reads "-- …" stays content', () => {
    const sql = '-- users\nCREATE TABLE users (id INTEGER);\n-- orders\nCREATE TABLE orders (id INTEGER);\n'
    const trimmed = 'CREATE TABLE users (id INTEGER);\n-- orders\nCREATE TABLE orders (id INTEGER);\n'
    const patch = createTwoFilesPatch('schema.sql', 'schema.sql', sql, trimmed)
    expect(patch).toContain('\n--- users\n')
    expect(applyHunks(sql, patch)).toBe(trimmed)
  })

  it('applies several hunks, and refuses one that does not fit', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`)
    const changed = lines.map((line, i) => (i === 2 ? 'LINE 3' : i === 26 ? 'LINE 27' : line))
    const text = (list: string[]) => list.join('\n') + '\n'
    const patch = createTwoFilesPatch('a.txt', 'a.txt', text(lines), text(changed))
    expect(patch.match(/^@@/gm)).toHaveLength(2)
    expect(applyHunks(text(lines), patch)).toBe(text(changed))
    expect(applyHunks('something else\n', patch)).toBeNull()
  })

  it('still reads Codex hunks (no counts, no header)', () => {
    expect(applyHunks('a\nb\nc\n', '@@\n a\n-b\n+B\n c')).toBe('a\nB\nc\n')
  })

  it('puts back the indentation OpenCode\'s trimDiff took off every line of its patch', () => {
    // OpenCode's edit tool stores trimDiff(createTwoFilesPatch(…)): the indentation every
    // non-blank line of the hunks shares (here 4 spaces) is cut from all of them.
    const lines = ['class Http {', '    async get(url) {', '        const response = await fetch(url)', '        if (!response.ok) throw new Error(url)', '        log(response.status)', '        return response', '    }', '', '    async head(url) {', '        return fetch(url, { method: "HEAD" })', '    }', '}', '']
    const before = lines.join('\n')
    const after = before.replace('        log(response.status)\n', '        log(response.status)\n        metrics.count(url)\n')
    const untrimmed = createTwoFilesPatch('/w/http.js', '/w/http.js', before, after)
    const isContent = (line: string) => /^[ +-]/.test(line) && !/^(---|\+\+\+)/.test(line)
    const shared = Math.min(...untrimmed.split('\n').filter((line) => isContent(line) && line.slice(1).trim() !== '').map((line) => /^\s*/.exec(line.slice(1))?.[0].length ?? 0))
    expect(shared).toBe(4)
    const trimmed = untrimmed.split('\n').map((line) => (isContent(line) ? line[0] + line.slice(1 + shared) : line)).join('\n')
    expect(trimmed).toContain('\n async get(url) {\n')
    expect(applyHunks(before, untrimmed)).toBe(after)
    expect(applyHunks(before, trimmed)).toBe(after)
    // Not a guess: lines that match only with different indentations do not fit.
    expect(applyHunks(before.replace('        return response', '      return response'), trimmed)).toBeNull()
  })
})
