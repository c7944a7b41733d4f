/**
 * Aider's SEARCH/REPLACE blocks, found in an answer the way Aider itself finds them
 * (`find_original_update_blocks`, `find_filename` and `strip_filename` in
 * aider/coders/editblock_coder.py, Apache-2.0): the file name on one of the three lines before
 * `<<<<<<< SEARCH`, a block without one reusing the previous block's file, and fenced shell
 * blocks (```bash …) as suggested commands. Aider's fuzzy matching of names against the chat's
 * files is left out: the history does not say which files were in the chat.
 */

export type EditBlock = { kind: 'edit'; path: string; search: string; replace: string } | { kind: 'shell'; command: string }

export interface BlockScan {
  blocks: EditBlock[]
  /** Set when a block is malformed (Aider's own message): Aider applies nothing of that answer. */
  error?: string
}

const HEAD = /^<{5,9} SEARCH>?\s*$/
const DIVIDER = /^={5,9}\s*$/
const UPDATED = /^>{5,9} REPLACE\s*$/
const TRIPLE = '```'
const SHELL_STARTS = ['```bash', '```sh', '```shell', '```cmd', '```batch', '```powershell', '```ps1', '```zsh', '```fish', '```ksh', '```csh', '```tcsh']

/** Aider's `all_fences`: which one an answer uses decides where file names may hide. */
const ALL_FENCES: readonly string[] = ['```', '````', '<source>', '<code>', '<pre>', '<codeblock>', '<sourcecode>']

/** The fence an answer uses, chosen as Aider's own test of its history does (wrapped fences before the plain one). */
export function fenceOf(content: string): string {
  for (const fence of [...ALL_FENCES.slice(1), ALL_FENCES[0] ?? TRIPLE]) if (content.includes(`\n${fence}`)) return fence
  return TRIPLE
}

/** Python's `str.strip()` on whitespace. */
const strip = (text: string): string => text.trim()

export function findEditBlocks(content: string, fence = fenceOf(content)): BlockScan {
  const lines = splitKeepEnds(content)
  const blocks: EditBlock[] = []
  let currentPath: string | null = null
  let i = 0
  while (i < lines.length) {
    const line = lines[i] ?? ''
    const nextIsEditBlock = HEAD.test(strip(lines[i + 1] ?? '')) || HEAD.test(strip(lines[i + 2] ?? ''))
    if (SHELL_STARTS.some((start) => strip(line).startsWith(start)) && !nextIsEditBlock) {
      const shell: string[] = []
      i += 1
      while (i < lines.length && !strip(lines[i] ?? '').startsWith(TRIPLE)) shell.push(lines[i++] ?? '')
      if (i < lines.length) i += 1
      blocks.push({ kind: 'shell', command: shell.join('') })
      continue
    }
    if (HEAD.test(strip(line))) {
      const path: string | null = findFilename(lines.slice(Math.max(0, i - 3), i), fence) ?? currentPath
      if (path === null) return failed(lines, i, `Bad/missing filename. The filename must be alone on the line before the opening fence ${fence}`)
      currentPath = path
      const search: string[] = []
      i += 1
      while (i < lines.length && !DIVIDER.test(strip(lines[i] ?? ''))) search.push(lines[i++] ?? '')
      if (i >= lines.length) return failed(lines, i, 'Expected `=======`')
      const replace: string[] = []
      i += 1
      while (i < lines.length && !UPDATED.test(strip(lines[i] ?? '')) && !DIVIDER.test(strip(lines[i] ?? ''))) replace.push(lines[i++] ?? '')
      if (i >= lines.length) return failed(lines, i, 'Expected `>>>>>>> REPLACE` or `=======`')
      blocks.push({ kind: 'edit', path, search: search.join(''), replace: replace.join('') })
    }
    i += 1
  }
  return { blocks }
}

/** Aider's error: the answer up to the bad line, then the reason. No block of the answer is applied. */
function failed(lines: string[], at: number, reason: string): BlockScan {
  return { blocks: [], error: `${lines.slice(0, at + 1).join('')}\n^^^ ${reason}` }
}

/** The nearest file name among the (up to 3) lines before the block, looking further back only past fences. */
function findFilename(before: string[], fence: string): string | undefined {
  const names: string[] = []
  for (const line of before.reverse().slice(0, 3)) {
    const name = stripFilename(line, fence)
    if (name) names.push(name)
    if (!line.startsWith(fence) && !line.startsWith(TRIPLE)) break
  }
  return names.find((name) => name.includes('.')) ?? names[0]
}

function stripFilename(raw: string, fence: string): string | undefined {
  let name = strip(raw)
  if (name === '...') return undefined
  for (const opening of [fence, TRIPLE]) {
    if (name.startsWith(opening)) {
      const candidate = name.slice(opening.length)
      return candidate && (candidate.includes('.') || candidate.includes('/')) ? candidate : undefined
    }
  }
  name = name.replace(/:+$/, '').replace(/^#+/, '')
  name = strip(name).replace(/^`+|`+$/g, '').replace(/^\*+|\*+$/g, '')
  return name || undefined
}

/** Python's `splitlines(keepends=True)` for `\n`, `\r\n` and `\r` line ends. */
function splitKeepEnds(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? []
}
