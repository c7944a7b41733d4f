import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = join(__dirname, '..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : []
  })
}

describe('layering by runtime', () => {
  // Requiring electron outside Electron tries to download its binary and throws: every
  // service, the store and the CLI must stay importable from plain Node. ESLint enforces the
  // same rule while editing; this test guards it even if the lint config drifts.
  it('imports electron only in src/main/electron and src/preload', () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => /from\s+['"]electron['"]|require\(\s*['"]electron['"]\s*\)|import\(\s*['"]electron['"]\s*\)/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file))
      .filter((file) => !file.startsWith('main/electron/') && !file.startsWith('preload/'))
    expect(offenders).toEqual([])
  })
})
