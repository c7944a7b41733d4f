import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** The names last read, by index path: live following discovers every few seconds, the index rarely changes. */
const lastRead = new Map<string, { signature: string; names: Map<string, string> }>()

/**
 * The thread names Codex keeps in `CODEX_HOME/session_index.jsonl` (codex-rs rollout
 * `session_index.rs`): one `{"id": <thread id>, "thread_name": <name>, "updated_at": <RFC 3339>}`
 * line appended per naming (a rename, or the name Codex gave the thread), the file append-only,
 * the last line of an id its current name. Blank names and lines that are not such an entry are
 * passed over, as Codex does. No file: no names.
 */
export async function readThreadNames(codexHome: string): Promise<Map<string, string>> {
  const path = join(codexHome, 'session_index.jsonl')
  let text: string
  let signature: string
  try {
    const { ino, size, mtimeMs } = await stat(path)
    signature = `${ino}:${size}:${mtimeMs}`
    const known = lastRead.get(path)
    if (known?.signature === signature) return known.names
    text = await readFile(path, 'utf8')
  } catch {
    return new Map()
  }
  const names = parseIndex(text)
  lastRead.set(path, { signature, names })
  return names
}

function parseIndex(text: string): Map<string, string> {
  const names = new Map<string, string>()
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    let entry: unknown
    try {
      entry = JSON.parse(line)
    } catch {
      continue
    }
    if (!entry || typeof entry !== 'object') continue
    const { id, thread_name: name } = entry as Record<string, unknown>
    if (typeof id !== 'string' || typeof name !== 'string' || name.trim() === '') continue
    names.set(id, name.trim())
  }
  return names
}
