import { binaryText } from './binary-text'
import { HIDDEN, readsAsName, redactInPlace, redactText, type SecretFinding, type TextPlace } from './redaction'
import type { ExportDocument, ExportMessage } from './document-schema'
import { roleLabel, type JsonValue } from './present'

// Every string of an export document that can carry someone's text, each with a stable place
// id and a label a person can recognise in the review list. One walker serves both the scan
// (collect) and the redaction (replace), so a string cannot be scanned and then left
// unredacted, or the other way round.
//
// File contents carried as base64 (not UTF-8: a NUL, a stray byte, UTF-16) are walked as
// their bytes read as text (binary-text.ts), and redacted in place, so a secret in them is
// found and hidden like one in a text file.
//
// Not walked, on purpose: Retrace's own ids (session ids, tool-less enums such as role, kind,
// op), sha256 hashes, path ids (recomputed from a redacted path) and the reasons Retrace writes
// for omitted files.

export interface DocumentText {
  place: TextPlace
  text: string
}

/** Called for each string; returns its replacement, or undefined to leave it as it is. */
type Edit = (place: TextPlace, text: string) => string | undefined

/** Every non-empty string of the document that a secret could hide in, with its place. */
export function documentTexts(doc: ExportDocument): DocumentText[] {
  const texts: DocumentText[] = []
  editTexts(doc, (place, text) => {
    texts.push({ place, text })
    return undefined
  })
  return texts
}

/** A copy of the document with each finding's range hidden (findings are grouped by their text). */
export function redactDocument(doc: ExportDocument, findings: readonly SecretFinding[]): ExportDocument {
  const byPlace = new Map<string, SecretFinding[]>()
  for (const finding of findings) {
    const list = byPlace.get(finding.placeId)
    if (list) list.push(finding)
    else byPlace.set(finding.placeId, [finding])
  }
  if (byPlace.size === 0) return doc
  const copy = structuredClone(doc)
  editTexts(copy, (place, text) => {
    const found = byPlace.get(place.id)
    if (!found) return undefined
    return place.binary ? redactInPlace(text, found) : redactText(text, found)
  })
  return copy
}

/**
 * A copy of the document with `replace` applied to every text (file contents carried as bytes
 * excepted: their length is their meaning). Used to replace the local workspace path.
 */
export function mapDocumentTexts(doc: ExportDocument, replace: (text: string) => string): ExportDocument {
  const copy = structuredClone(doc)
  editTexts(copy, (place, text) => (place.binary ? undefined : replace(text)))
  return copy
}

/** Walk every text place of `doc`, writing back whatever `edit` returns. */
function editTexts(doc: ExportDocument, edit: Edit): void {
  const visit: Visit = (id, label, text, binary) => {
    if (text === null || text === '') return text
    return edit(binary ? { id, label, binary } : { id, label }, text) ?? text
  }
  const { session, workspace, tree } = doc
  session.title = visit('session.title', 'Session title', session.title) ?? ''
  session.model = visit('session.model', 'Session model', session.model)
  session.cwd = visit('session.cwd', 'Session working folder', session.cwd)
  workspace.name = visit('workspace.name', 'Workspace name', workspace.name) ?? ''
  workspace.path = visit('workspace.path', 'Workspace folder', workspace.path) ?? ''
  const refs: [string, string, { title: string }[]][] = [
    ['tree.ancestors', 'Session tree: title of an ancestor', tree.ancestors],
    ['tree.successors', 'Session tree: title of a later session', tree.successors],
    ['tree.children', 'Session tree: title of a branch or sub-agent', tree.children]
  ]
  for (const [prefix, label, list] of refs) list.forEach((ref, i) => (ref.title = visit(`${prefix}.${i}.title`, label, ref.title) ?? ''))
  if (tree.predecessor) tree.predecessor.title = visit('tree.predecessor.title', 'Session tree: title of the previous session', tree.predecessor.title) ?? ''
  for (const message of doc.messages) editMessage(message, visit)
  editFiles(doc, visit)
}

type Visit = (id: string, label: string, text: string | null, binary?: true) => string | null

function editMessage(message: ExportMessage, visit: Visit): void {
  const id = `m${message.seq}`
  const where = `Turn ${message.turn} · ${roleLabel(message)}`
  const at = `(message ${message.seq + 1})`
  message.content = visit(`${id}.content`, `${where} ${at}`, message.content) ?? ''
  message.toolName = visit(`${id}.toolName`, `${where}: tool name ${at}`, message.toolName)
  message.toolCallId = visit(`${id}.toolCallId`, `${where}: tool call id ${at}`, message.toolCallId)
  message.model = visit(`${id}.model`, `${where}: model ${at}`, message.model)
  const ref = message.sourceRef
  if (ref && 'file' in ref) ref.file = visit(`${id}.sourceRef.file`, `${where}: source file ${at}`, ref.file) ?? ''
  if (ref && 'table' in ref) {
    ref.table = visit(`${id}.sourceRef.table`, `${where}: source table ${at}`, ref.table) ?? ''
    ref.rowId = visit(`${id}.sourceRef.rowId`, `${where}: source row ${at}`, ref.rowId) ?? ''
  }
  if (message.toolInput !== null) {
    message.toolInput = editJson(message.toolInput, '', (pointer, text, isKey) => {
      const field = pointer === '' ? '' : ` › ${fieldPath(pointer)}`
      return visit(`${id}.toolInput${pointer}${isKey ? '#key' : ''}`, `${where}: input${field}${isKey ? ' (field name)' : ''} ${at}`, text) ?? text
    })
  }
}

/**
 * A JSON pointer as a label shows it: `nested › list › 1 › deep`. A field name is the agent's
 * text and can be the secret itself (`{"ghp_…": true}`), so a name that does not read as one
 * shows as ••• (context-mask.ts); array positions show as they are.
 */
function fieldPath(pointer: string): string {
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((name) => (/^\d{1,6}$/.test(name) || readsAsName(name) ? name : HIDDEN))
    .join(' › ')
}

type EditJsonString = (pointer: string, text: string, isKey: boolean) => string

/** Every string of a JSON value, values and field names, addressed by JSON pointer (RFC 6901). */
function editJson(value: JsonValue, pointer: string, edit: EditJsonString): JsonValue {
  if (typeof value === 'string') return edit(pointer, value, false)
  if (Array.isArray(value)) return value.map((item, i) => editJson(item, `${pointer}/${i}`, edit))
  if (value === null || typeof value !== 'object') return value
  const result: Record<string, JsonValue> = {}
  for (const [key, item] of Object.entries(value)) {
    const child = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
    let name = edit(child, key, true)
    // Two field names redacted alike must not overwrite each other.
    while (name !== key && Object.hasOwn(result, name)) name = `${name}′`
    result[name] = editJson(item, child, edit)
  }
  return result
}

function editFiles(doc: ExportDocument, visit: Visit): void {
  // Labels number files within their turn and never quote a path: a secret in a file name
  // would otherwise be printed in the review list that is meant to hide it.
  const firstUse = new Map<string, string>()
  const perTurn = new Map<number, number>()
  const totals = new Map<number, number>()
  for (const change of doc.fileChanges) totals.set(change.turn, (totals.get(change.turn) ?? 0) + 1)
  doc.fileChanges.forEach((change, i) => {
    const n = (perTurn.get(change.turn) ?? 0) + 1
    perTurn.set(change.turn, n)
    const file = `file ${n} of ${totals.get(change.turn) ?? n} changed in turn ${change.turn}`
    const path = visit(`f${i}.path`, `Name of ${file}`, change.path) ?? ''
    // A path id is the path's bytes: a redacted name must not survive in it.
    if (path !== change.path) Object.assign(change, { path, pathId: pathIdOf(path) })
    if (change.from) {
      const from = visit(`f${i}.from.path`, `Former name of ${file}`, change.from.path) ?? ''
      if (from !== change.from.path) change.from = { path: from, pathId: pathIdOf(from) }
    }
    change.diff.patch = visit(`f${i}.diff`, `Diff of ${file}`, change.diff.patch) ?? ''
    if (change.before && !firstUse.has(change.before.hash)) firstUse.set(change.before.hash, `${file}, before`)
    if (change.after && !firstUse.has(change.after.hash)) firstUse.set(change.after.hash, `${file}, after`)
  })
  for (const [hash, content] of Object.entries(doc.fileContents ?? {})) {
    const label = `Contents of ${firstUse.get(hash) ?? `file version ${hash.slice(0, 12)}`}`
    if (content.encoding === 'utf8') content.text = visit(`file:${hash}`, label, content.text) ?? ''
    if (content.encoding !== 'base64') continue
    const bytes = binaryText(Buffer.from(content.base64, 'base64'))
    const text = visit(`file:${hash}`, `${label} (binary)`, bytes.text, true)
    if (text !== null && text !== bytes.text) content.base64 = bytes.toBytes(text).toString('base64')
  }
}

/** A path id is never empty (the schema refuses one), even for a name redacted to nothing. */
function pathIdOf(path: string): string {
  return Buffer.from(path || '_', 'utf8').toString('base64')
}
