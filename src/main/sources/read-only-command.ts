/**
 * Whether a shell command certainly changes no file, so a turn that ran it is not marked as
 * having "shell commands not captured". The rule errs one way only: anything it does not
 * understand (command substitution, here-documents, an unknown program, a redirection into a
 * file, an option that writes) counts as possibly writing. A read-only command wrongly counted
 * costs a warning; a writing command wrongly trusted would hide a change a rewind cannot undo.
 */
export function isReadOnlyCommand(command: string): boolean {
  const segments = splitCommand(command)
  if (segments === null) return false
  return segments.every((words) => words.length === 0 || readOnlyWords(words))
}

/** A word of a segment, its quotes removed; `quoted` when any of it was quoted (not an operator then). */
interface Word {
  text: string
  quoted: boolean
}

/** Where a redirection may point without writing a file. */
const HARMLESS_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr'])

/**
 * The command's simple commands (split on `;`, `&&`, `||`, `|`, `&`, newlines) as words, or null
 * when it holds something the rule does not follow: `$(…)`, backticks, `<(…)`, `<<`, an unclosed
 * quote, or an output redirection into anything but /dev/null or another descriptor.
 */
function splitCommand(command: string): Word[][] | null {
  const segments: Word[][] = [[]]
  let word = null as Word | null
  const end = () => {
    if (word) segments[segments.length - 1]?.push(word)
    word = null
  }
  for (let i = 0; i < command.length; i++) {
    const c = command[i] ?? ''
    if (c === "'" || c === '"') {
      const close = command.indexOf(c, i + 1)
      if (close < 0) return null
      const inner = command.slice(i + 1, close)
      if (c === '"' && /\$\(|`/.test(inner)) return null
      word = { text: (word?.text ?? '') + inner, quoted: true }
      i = close
    } else if (c === '\\') {
      word = { text: (word?.text ?? '') + (command[i + 1] ?? ''), quoted: true }
      i++
    } else if (c === '`' || (c === '$' && command[i + 1] === '(') || (c === '<' && command[i + 1] === '(') || (c === '<' && command[i + 1] === '<')) {
      return null
    } else if (c === '>') {
      // `2>&1`, `>&2`: between descriptors. `> file`, `>> file`, `&> file`: into a file.
      if (word !== null && !word.quoted && /^\d+$/.test(word.text)) word = null
      end()
      let j = i + 1
      if (command[j] === '>' || command[j] === '|') j++
      if (command[j] === '&') {
        // The descriptor it points to (`1`, `2`, `-` to close) is no word of the command.
        while (/[0-9-]/.test(command[j + 1] ?? '')) j++
        i = j
        continue
      }
      while (command[j] === ' ' || command[j] === '\t') j++
      const target = /^[^\s;&|<>]+/.exec(command.slice(j))?.[0] ?? ''
      if (!HARMLESS_TARGETS.has(target)) return null
      i = j + target.length - 1
    } else if (c === ';' || c === '|' || c === '&' || c === '\n') {
      // `&>` is the redirection above, seen at its `>`.
      if (c === '&' && command[i + 1] === '>') continue
      end()
      segments.push([])
    } else if (c === ' ' || c === '\t') {
      end()
    } else {
      word = { text: (word?.text ?? '') + c, quoted: word?.quoted ?? false }
    }
  }
  end()
  return segments
}

/** Programs that only read, whatever their arguments (writing needs a redirection, refused above). */
const READERS = new Set([
  'ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'pwd', 'echo', 'printf', 'which', 'type',
  'file', 'stat', 'du', 'df', 'tree', 'less', 'more', 'diff', 'cmp', 'cut', 'tr', 'jq', 'date', 'whoami', 'basename',
  'dirname', 'realpath', 'readlink', 'true', 'false', 'test', '[', 'cd', 'nl', 'column', 'sha256sum', 'sha1sum',
  'md5sum', 'shasum', 'od', 'hexdump', 'uname', 'hostname', 'id', 'ps', 'fd', 'exit', 'sleep'
])

/** git subcommands that read the repository and write nothing (no index refresh either: `status` does, harmlessly). */
const GIT_READERS = new Set(['status', 'log', 'diff', 'show', 'rev-parse', 'ls-files', 'ls-tree', 'blame', 'grep', 'describe', 'shortlog', 'cat-file', 'rev-list', 'merge-base', 'show-ref', 'whatchanged'])

/** `find` actions that delete, run programs or write files. */
const FIND_WRITERS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'])

function readOnlyWords(all: Word[]): boolean {
  let words = all.map((word) => word.text)
  // `VAR=value cmd`: the assignments only set the command's environment.
  while (words[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0])) words = words.slice(1)
  // `sudo cmd`, `time cmd`: the command is what matters (sudo with options is not followed).
  while (words[0] === 'sudo' || words[0] === 'time' || words[0] === 'command') words = words.slice(1)
  const [program, ...args] = words
  if (program === undefined) return true
  if (READERS.has(program)) return true
  if (asksForHelp(program, args)) return true
  switch (program) {
    case 'bash':
    case 'sh':
    case 'zsh':
      // `bash -n script`: parses the script, runs nothing.
      return args[0] === '-n' && args.length > 1 && args.slice(1).every((arg) => !arg.startsWith('-'))
    case 'curl':
      // Prints what it fetched unless told to save it (`-o`, `-O`, a cookie jar, a header dump, a trace).
      return !args.some((arg) => /^-[a-zA-Z]*[oOcD]/.test(arg) || /^--(output|remote-name|cookie-jar|dump-header|trace|libcurl|create-dirs|etag-save|hsts|alt-svc)/.test(arg))
    case 'git':
      return readOnlyGit(args)
    case 'find':
      return !args.some((arg) => FIND_WRITERS.has(arg))
    case 'sed':
      // `-i`, `-i.bak`, `-ni`, `--in-place`; a `w file` command in the script writes too.
      return !args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place') || /(^|[/;}\s])[wW]\s*\S/.test(arg))
    case 'sort':
      return !args.some((arg) => /^-[a-zA-Z]*o/.test(arg) || arg.startsWith('--output'))
    default:
      return false
  }
}

/**
 * `claude --help`, `gh api graphql --help`, `tool --version`: an installed program (named, not a
 * path to a script) asked for its help after its subcommand words only, or for its version alone.
 * Command-line tools print and exit then; a script of the workspace might not, hence the name.
 */
function asksForHelp(program: string, args: string[]): boolean {
  if (program.includes('/') || program.startsWith('.')) return false
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) return true
  const last = args[args.length - 1]
  return (last === '--help' || last === '-h') && args.slice(0, -1).every((arg) => /^[a-z][a-z0-9-]*$/.test(arg))
}

/** `git [-C dir] [-c k=v] [--no-pager] <subcommand> …`, the subcommand one of GIT_READERS. */
function readOnlyGit(args: string[]): boolean {
  let i = 0
  while (i < args.length) {
    const arg = args[i] ?? ''
    if (arg === '-C' || arg === '-c') i += 2
    else if (arg === '--no-pager' || arg.startsWith('--git-dir=') || arg.startsWith('--work-tree=')) i++
    else break
  }
  const subcommand = args[i]
  if (subcommand === undefined) return false
  const rest = args.slice(i + 1)
  if (GIT_READERS.has(subcommand)) return !(subcommand === 'diff' && rest.some((arg) => arg.startsWith('--output')))
  // Listing forms only: `git branch`, `git branch -a`, `git remote -v`, `git stash list`, `git tag -l`.
  if (subcommand === 'branch' || subcommand === 'remote') return rest.every((arg) => /^-(a|r|v|vv|-all|-list|-verbose|-remotes|-show-current)$/.test(arg))
  if (subcommand === 'stash') return rest[0] === 'list' || rest[0] === 'show'
  if (subcommand === 'tag') return rest.length === 0 || rest[0] === '-l' || rest[0] === '--list'
  return false
}
