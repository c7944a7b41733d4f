import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createClaudeCodeParser } from '../../../sources/claude-code/parser'
import type { ScanInput } from '../types'

const FIXTURES = join(__dirname, '../../../../../fixtures/claude-code')

function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return jsonlFiles(path)
    return entry.name.endsWith('.jsonl') ? [path] : []
  })
}

/**
 * The decoded texts of every real Claude Code transcript under fixtures/claude-code, as an
 * export scans them: each message's text and each tool input as JSON text, read through the
 * importer's own parser (so JSON escaping is undone exactly as it is for an import).
 */
export function fixtureTexts(): ScanInput[] {
  const texts: ScanInput[] = []
  for (const file of jsonlFiles(FIXTURES)) {
    const parser = createClaudeCodeParser()
    let offset = 0
    let turn = 0
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const records = line.trim() === '' ? [] : parser.feed(line, offset)
      offset += Buffer.byteLength(line) + 1
      for (const record of records) {
        if (record.kind !== 'message') continue
        if (record.startsTurn) turn++
        const where = `${file.slice(FIXTURES.length + 1)} · turn ${turn}`
        texts.push({ place: { id: `${file}:${record.offset}:${texts.length}`, label: `${where} · ${record.role}` }, text: record.content })
        if (record.toolInput !== undefined) {
          texts.push({ place: { id: `${file}:${record.offset}:${texts.length}`, label: `${where} · tool input (${record.toolName ?? '?'})` }, text: JSON.stringify(record.toolInput) })
        }
      }
    }
  }
  return texts
}
