/**
 * What an agent's hook pipes on stdin, read the same way whether the hook hands its turn to a
 * running Retrace or captures it itself. An agent writes a small JSON document and closes the
 * pipe; a hook must never hang on one that does not, nor hold a runaway one in memory.
 */

/** Past this the input is not read on (a prompt pasted with a whole log is still far below it). */
export const MAX_HOOK_INPUT_BYTES = 8 * 1024 * 1024
/** How long an agent gets to close the pipe. */
export const HOOK_INPUT_WAIT_MS = 2000

/** The text piped on stdin; undefined when stdin is a terminal or the input passed MAX_HOOK_INPUT_BYTES. */
export async function readHookStdin(stdin: NodeJS.ReadStream = process.stdin, timeoutMs = HOOK_INPUT_WAIT_MS, maxBytes = MAX_HOOK_INPUT_BYTES): Promise<string | undefined> {
  if (stdin.isTTY) return undefined
  const chunks: Buffer[] = []
  let bytes = 0
  return new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => finish(), timeoutMs)
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > maxBytes) return finish(true)
      chunks.push(chunk)
    }
    const finish = (tooLarge = false) => {
      clearTimeout(timer)
      stdin.off('data', onData)
      stdin.pause()
      resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8'))
    }
    stdin.on('data', onData)
    stdin.once('end', () => finish())
    stdin.once('error', () => finish())
  })
}

/** The JSON value of a hook's input (undefined when none came, or it does not parse). */
export function parseHookInput(text: string | undefined): unknown {
  if (text === undefined) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The hook's working folder ('/' when it was removed under the hook: a hook must not fail on it). */
export function hookWorkingFolder(): string {
  try {
    return process.cwd()
  } catch {
    return '/'
  }
}
