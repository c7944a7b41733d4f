import { describe, expect, it } from 'vitest'
import type { ExportDocument } from './document-schema'
import { documentTexts, redactDocument } from './document-texts'
import type { SecretFinding } from './redaction'
import { fullDocument } from './testing/full-document'

/**
 * Fields that hold nobody's text, so the walker skips them on purpose: Retrace's ids and enums,
 * sha256 hashes, path ids (recomputed from a redacted path), and the notes Retrace itself
 * writes for omitted files. Any other string field a future change adds gets a marker below
 * and fails the test until the walker covers it. File bytes carried as base64 get theirs
 * between a NUL and a byte that is not UTF-8, as a binary file would hold it.
 */
const NOT_TEXT = new Set(['id', 'source', 'kind', 'role', 'op', 'observed', 'status', 'encoding', 'pathId', 'hash', 'reason'])
const inBytes = (marker: string): string => Buffer.concat([Buffer.from([0, 0xff]), Buffer.from(marker), Buffer.from([0])]).toString('base64')
const MARKER = /MARK\d{4}Z/g

/** A copy of `doc` with a unique marker in every text string, tool input field names included. */
function plantMarkers(doc: ExportDocument): { doc: ExportDocument; markers: string[] } {
  const markers: string[] = []
  const mark = () => {
    const marker = `MARK${String(markers.length).padStart(4, '0')}Z`
    markers.push(marker)
    return marker
  }
  const walk = (value: unknown, key: string, inJson: boolean): unknown => {
    if (typeof value === 'string' && key === 'base64' && !inJson) return inBytes(mark())
    if (typeof value === 'string') return !inJson && NOT_TEXT.has(key) ? value : mark()
    if (Array.isArray(value)) return value.map((item) => walk(item, key, inJson))
    if (value === null || typeof value !== 'object') return value
    const result: Record<string, unknown> = {}
    for (const [name, item] of Object.entries(value)) {
      const json = inJson || name === 'toolInput'
      // Inside a tool input the field names are the agent's text too; elsewhere they are the schema's.
      result[inJson ? mark() : name] = walk(item, name, json)
    }
    return result
  }
  return { doc: walk(doc, '', false) as ExportDocument, markers }
}

/** The tiny finder the tests use instead of the real scanner: every planted marker is a "secret". */
function findMarkers(doc: ExportDocument): SecretFinding[] {
  return documentTexts(doc).flatMap(({ place, text }) =>
    [...text.matchAll(MARKER)].map((match) => ({
      id: `${place.id}@${match.index}`,
      ruleId: 'test/marker',
      ruleName: 'Marker',
      placeId: place.id,
      placeLabel: place.label,
      start: match.index,
      end: match.index + match[0].length,
      masked: 'MARK…',
      excerpt: ''
    }))
  )
}

describe('the texts of an export document', () => {
  it('lists every string a secret could hide in, each marker once, with unique stable place ids', () => {
    const { doc, markers } = plantMarkers(fullDocument())
    expect(markers.length).toBeGreaterThan(40)
    const texts = documentTexts(doc)
    const found = texts.flatMap(({ text }) => text.match(MARKER) ?? [])
    expect([...found].sort()).toEqual([...markers].sort())
    const ids = texts.map((t) => t.place.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(documentTexts(doc).map((t) => t.place)).toEqual(texts.map((t) => t.place))
  })

  it('labels places so a person can find them, addressing tool input fields by JSON pointer', () => {
    const places = new Map(documentTexts(fullDocument()).map(({ place, text }) => [place.id, { label: place.label, text }]))
    expect(places.get('m1.toolInput/nested/list/1/deep')).toEqual({ label: 'Turn 1 · Bash call: input › nested › list › 1 › deep (message 2)', text: 'two' })
    expect(places.get('m1.toolInput/odd~1key~0name#key')?.text).toBe('odd/key~name')
    expect(places.get('m5.toolInput')?.text).toBe('a bare string input')
    expect(places.get('m2.content')?.label).toBe('Turn 1 · Bash result (message 3)')
    expect(places.get('f1.from.path')).toEqual({ label: 'Former name of file 1 of 1 changed in turn 2', text: 'old/name.bin' })
    expect(places.get('f0.diff')?.label).toBe('Diff of file 1 of 1 changed in turn 1')
    expect(places.get(`file:${'a'.repeat(64)}`)?.label).toBe('Contents of file 1 of 1 changed in turn 1, before')
    // Bytes carried as base64 are read one character a byte; Retrace's own notes are not text to scan.
    expect(places.get(`file:${'c'.repeat(64)}`)).toEqual({ label: 'Contents of file 1 of 1 changed in turn 2, before (binary)', text: '\u0000\u0001' })
    expect(places.has(`file:${'b'.repeat(64)}`)).toBe(false)
  })

  it('never quotes a tool input field name that does not read as a name: it can be the secret', () => {
    const doc = fullDocument()
    const token = ['gh', 'p_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('')
    const call = doc.messages[1]
    if (call) call.toolInput = { env: { [token]: 'x', HOME: '/home/dev' }, 'odd/key~name': [{ deep: 'y' }] }
    const labels = documentTexts(doc).map((t) => t.place.label)
    expect(labels).toContain('Turn 1 · Bash call: input › env › ••• (field name) (message 2)')
    expect(labels).toContain('Turn 1 · Bash call: input › env › ••• (message 2)')
    expect(labels).toContain('Turn 1 · Bash call: input › env › HOME (message 2)')
    expect(labels).toContain('Turn 1 · Bash call: input › odd/key~name › 0 › deep (message 2)')
    expect(labels.join('\n')).not.toContain(token.slice(4, 12))
  })

  it('redacts every finding in a copy, leaving the original as it was', () => {
    const { doc } = plantMarkers(fullDocument())
    const before = JSON.stringify(doc)
    const redacted = redactDocument(doc, findMarkers(doc))
    expect(JSON.stringify(doc)).toBe(before)
    expect(JSON.stringify(redacted)).not.toMatch(MARKER)
    expect(redacted.messages[0]?.content).toBe('[REDACTED: Marker]')
    // Bytes keep their length: a 9-character secret is too short for "[REDACTED]", so stars.
    const bytes = Object.values(redacted.fileContents ?? {}).flatMap((content) => (content.encoding === 'base64' ? [Buffer.from(content.base64, 'base64')] : []))
    expect(bytes.map((b) => b.toString('latin1'))).toEqual(['\u0000\u00ff*********\u0000'])
    // A redacted file name leaves no trace in the path id, which is the name's bytes.
    for (const change of redacted.fileChanges) {
      expect(Buffer.from(change.pathId, 'base64').toString()).toBe(change.path)
      if (change.from) expect(Buffer.from(change.from.pathId, 'base64').toString()).toBe(change.from.path)
    }
  })

  it('redacts only the findings it is given (the kept ones stay), and returns the document itself when there are none', () => {
    const { doc } = plantMarkers(fullDocument())
    const findings = findMarkers(doc)
    const kept = findings.find((f) => f.placeId === 'session.title')
    const redacted = redactDocument(doc, findings.filter((f) => f !== kept))
    expect(redacted.session.title).toBe(doc.session.title)
    expect(redacted.workspace.path).toBe('[REDACTED: Marker]')
    expect(redactDocument(doc, [])).toBe(doc)
  })

  it('keeps two tool input field names apart when they redact to the same text', () => {
    const doc = fullDocument()
    const call = doc.messages[1]
    if (call) call.toolInput = { MARK0001Z: 'x', MARK0002Z: 'y' }
    const redacted = redactDocument(doc, findMarkers(doc))
    expect(redacted.messages[1]?.toolInput).toEqual({ '[REDACTED: Marker]': 'x', '[REDACTED: Marker]′': 'y' })
  })
})
