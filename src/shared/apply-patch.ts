/**
 * Codex's `apply_patch` format, parsed without touching any file.
 *
 * ```
 * *** Begin Patch
 * *** Add File: <path>          followed by "+" lines: the whole new file
 * *** Delete File: <path>
 * *** Update File: <path>
 * *** Move to: <new path>       optional, right after Update File
 * @@ [context]                  a hunk: " " context, "-" removed, "+" added lines
 * *** End of File               optional, ends a hunk anchored at the end of the file
 * *** End Patch
 * ```
 *
 * Leniencies follow Codex's own parser (codex-rs `apply-patch/src/parser.rs`): markers are
 * compared with surrounding whitespace trimmed, the first hunk of an update may omit its `@@`
 * line, an empty line inside a hunk is an empty context line, and a patch wrapped in a heredoc
 * (`<<'EOF' … EOF`) is unwrapped. Anything else is an error with a reason; nothing throws.
 */

export type PatchOp =
  | { type: 'add'; path: string; content: string }
  | { type: 'delete'; path: string }
  /** `hunks`: the hunk lines verbatim (`@@` headers, ` `/`-`/`+` lines, `*** End of File`). */
  | { type: 'update'; path: string; movePath: string | null; hunks: string }

export type PatchParseResult = { ok: true; ops: PatchOp[] } | { ok: false; error: string }

const BEGIN = '*** Begin Patch'
const END = '*** End Patch'
const ADD = '*** Add File:'
const DELETE = '*** Delete File:'
const UPDATE = '*** Update File:'
const MOVE = '*** Move to:'
const EOF_MARKER = '*** End of File'

export function parseApplyPatch(text: string): PatchParseResult {
  let lines = text.split(/\r?\n/)
  // A trailing newline leaves one empty last element; so may trailing blank lines.
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop()
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift()
  lines = unwrapHeredoc(lines)

  if (lines.length === 0 || lines[0]!.trim() !== BEGIN) {
    return { ok: false, error: `the first line of the patch must be '${BEGIN}'` }
  }
  if (lines.length < 2 || lines[lines.length - 1]!.trim() !== END) {
    return { ok: false, error: `the last line of the patch must be '${END}'` }
  }

  const body = lines.slice(1, -1)
  const ops: PatchOp[] = []
  let i = 0
  while (i < body.length) {
    const line = body[i]!
    const marker = line.trim()
    const lineNo = i + 2 // 1-based, counting the Begin line
    if (marker === '') {
      i++
      continue
    }
    if (marker.startsWith(ADD)) {
      const path = marker.slice(ADD.length).trim()
      if (!path) return { ok: false, error: `line ${lineNo}: '*** Add File:' without a path` }
      i++
      const content: string[] = []
      while (i < body.length && body[i]!.startsWith('+')) {
        content.push(body[i]!.slice(1))
        i++
      }
      ops.push({ type: 'add', path, content: content.map((l) => `${l}\n`).join('') })
      continue
    }
    if (marker.startsWith(DELETE)) {
      const path = marker.slice(DELETE.length).trim()
      if (!path) return { ok: false, error: `line ${lineNo}: '*** Delete File:' without a path` }
      ops.push({ type: 'delete', path })
      i++
      continue
    }
    if (marker.startsWith(UPDATE)) {
      const path = marker.slice(UPDATE.length).trim()
      if (!path) return { ok: false, error: `line ${lineNo}: '*** Update File:' without a path` }
      i++
      let movePath: string | null = null
      if (i < body.length && body[i]!.trim().startsWith(MOVE)) {
        movePath = body[i]!.trim().slice(MOVE.length).trim()
        if (!movePath) return { ok: false, error: `line ${i + 2}: '*** Move to:' without a path` }
        i++
      }
      const hunkLines: string[] = []
      let inHunk = false
      while (i < body.length) {
        const hunkLine = body[i]!
        // Markers start at the beginning of the line; ' *** x' is a context line.
        const isMarker = hunkLine.startsWith('***')
        if (isMarker && hunkLine.trim() !== EOF_MARKER) break
        if (isMarker) {
          if (!inHunk) return { ok: false, error: `line ${i + 2}: '${EOF_MARKER}' outside a hunk of '${path}'` }
          hunkLines.push(EOF_MARKER)
          inHunk = false
        } else if (hunkLine.startsWith('@@')) {
          hunkLines.push(hunkLine)
          inHunk = true
        } else if (hunkLine === '' || hunkLine.startsWith(' ') || hunkLine.startsWith('-') || hunkLine.startsWith('+')) {
          // Codex allows the first hunk of a file to start without its `@@` line.
          if (!inHunk && hunkLines.length > 0) {
            return { ok: false, error: `line ${i + 2}: hunk line after '${EOF_MARKER}' in '${path}' without a new '@@'` }
          }
          inHunk = true
          hunkLines.push(hunkLine)
        } else {
          return {
            ok: false,
            error: `line ${i + 2}: unexpected line in the update of '${path}': ${JSON.stringify(truncate(hunkLine, 80))} (hunk lines start with ' ', '-' or '+')`
          }
        }
        i++
      }
      if (hunkLines.length === 0) {
        return { ok: false, error: `the update of '${path}' has no hunk` }
      }
      ops.push({ type: 'update', path, movePath, hunks: hunkLines.map((l) => `${l}\n`).join('') })
      continue
    }
    return {
      ok: false,
      error: `line ${lineNo}: ${JSON.stringify(truncate(marker, 80))} is not a file operation ('*** Add File:', '*** Delete File:' or '*** Update File:')`
    }
  }
  if (ops.length === 0) return { ok: false, error: 'the patch has no file operation' }
  return { ok: true, ops }
}

/** `apply_patch <<'EOF'` … `EOF` (as models sometimes write it) → the lines in between. */
function unwrapHeredoc(lines: string[]): string[] {
  if (lines.length < 4) return lines
  const open = /^(?:apply_patch|applypatch)?\s*<<-?\s*(['"]?)(\w+)\1\s*$/.exec(lines[0]!.trim())
  if (!open) return lines
  if (lines[lines.length - 1]!.trim() !== open[2]) return lines
  return lines.slice(1, -1)
}

/**
 * The patch text of a shell call that is really an `apply_patch` (Codex intercepts these and
 * applies the patch itself, so the shell never runs): `["apply_patch", "<patch>"]`, or a shell
 * script `[optional "cd <dir> &&"] apply_patch <<'EOF' … EOF`. Returns null for anything else.
 * `cd` is the directory the script changed to first, if any.
 */
export function applyPatchFromCommand(argv: readonly string[] | string): { patch: string; cd: string | null } | null {
  if (Array.isArray(argv)) {
    const [first, second, third] = argv as readonly string[]
    if (argv.length === 2 && (first === 'apply_patch' || first === 'applypatch') && second !== undefined) {
      return { patch: second, cd: null }
    }
    if (argv.length === 3 && first !== undefined && isShell(first) && (second === '-lc' || second === '-c') && third !== undefined) {
      return applyPatchFromScript(third)
    }
    return null
  }
  return applyPatchFromScript(argv as string)
}

function applyPatchFromScript(script: string): { patch: string; cd: string | null } | null {
  const m = /^\s*(?:cd\s+("[^"]*"|'[^']*'|\S+)\s*&&\s*)?(?:apply_patch|applypatch)\s*<<-?\s*(['"]?)(\w+)\2\s*\n([\s\S]*?)\n\s*\3\s*$/.exec(script)
  if (!m) return null
  const cd = m[1] === undefined ? null : m[1].replace(/^(["'])(.*)\1$/, '$2')
  return { patch: m[4]!, cd }
}

export function isShell(program: string): boolean {
  return /^(?:.*\/)?(?:ba|z|da|k|fi)?sh(?:\.exe)?$/.test(program) || /^(?:.*[\\/])?(?:pwsh|powershell)(?:\.exe)?$/i.test(program)
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
