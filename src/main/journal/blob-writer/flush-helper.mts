import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { toBuffer } from './target-files.mts'

const flushFailure = (why: string) => Object.assign(new Error(`EIO: flushing the file system failed: ${why}`), { code: 'EIO' })

/**
 * Runs `program --file-system -- PATH` (coreutils sync: syncfs(2)) for each path asked, from one
 * small shell that stays running. Starting a process from this one copies the page tables of
 * the whole (large) process: tens of milliseconds each time at the few hundred megabytes an app
 * holds; the shell's own starts of `sync` cost about a millisecond. Paths go to the shell as raw
 * bytes on a line and are only ever quoted arguments, never shell text. Each request gets one
 * line back, in order: `ok`, or `fail` and the program's complaint.
 */
export class FlushHelper {
  private static readonly script = [
    'while IFS= read -r path; do',
    '  if err=$("$0" --file-system -- "$path" 2>&1 </dev/null); then echo ok',
    '  else printf \'fail %s\\n\' "$(printf %s "$err" | tr \'\\n\' \' \')"; fi',
    'done'
  ].join('\n')

  private readonly program: string
  private child: ChildProcess | null = null
  private readonly waiting: { resolve: () => void; reject: (error: Error) => void }[] = []
  private output = ''

  constructor(program: string) {
    this.program = program
  }

  /** Start the helper now, if it is not running: the first flush then does not wait for it. */
  start(): void {
    this.running()
  }

  sync(path: Uint8Array): Promise<void> {
    const bytes = toBuffer(path)
    // A line per path: a name with a line break (legal, if unheard of) gets a process of its own.
    if (bytes.includes(0x0a)) return syncOnce(this.program, bytes.toString())
    return new Promise<void>((resolve, reject) => {
      const child = this.running()
      this.waiting.push({ resolve, reject })
      child.stdin?.write(Buffer.concat([bytes, Buffer.from('\n')]))
    })
  }

  private running(): ChildProcess {
    if (this.child) return this.child
    const child = spawn('/bin/sh', ['-c', FlushHelper.script, this.program], { stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true })
    child.stdout?.setEncoding('utf8')
    child.stdout?.on('data', (text: string) => this.answer(text))
    child.stdin?.on('error', () => undefined) // the helper died: 'exit' fails what waits
    const died = (why: string) => {
      if (this.child !== child) return
      this.child = null
      for (const waiter of this.waiting.splice(0)) waiter.reject(flushFailure(`the flush helper stopped (${why})`))
    }
    child.on('error', (error) => died(error.message))
    child.on('exit', (code, signal) => died(signal ?? `exit ${code}`))
    this.child = child
    return child
  }

  private answer(text: string): void {
    this.output += text
    for (let end = this.output.indexOf('\n'); end !== -1; end = this.output.indexOf('\n')) {
      const line = this.output.slice(0, end)
      this.output = this.output.slice(end + 1)
      const waiter = this.waiting.shift()
      if (line === 'ok') waiter?.resolve()
      else waiter?.reject(flushFailure(line.replace(/^fail /, '').trim() || 'the program failed'))
    }
  }
}

/** One process for one flush: the rare path a helper's line protocol cannot carry. */
function syncOnce(program: string, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(program, ['--file-system', '--', path], { windowsHide: true }, (error, _stdout, stderr) => {
      if (error) reject(flushFailure(String(stderr).trim() || error.message))
      else resolve()
    })
  })
}

/** The worker's helpers, one per program, kept as long as the thread. */
export class FlushHelpers {
  private readonly helpers = new Map<string, FlushHelper>()

  for(program: string): FlushHelper {
    let helper = this.helpers.get(program)
    if (!helper) this.helpers.set(program, (helper = new FlushHelper(program)))
    return helper
  }
}
