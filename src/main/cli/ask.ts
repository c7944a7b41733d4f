import { createInterface } from 'node:readline/promises'

/**
 * Ask a yes/no question on the terminal; no when there is no terminal to answer (a script, a
 * service): consent is never assumed.
 */
export async function askYesNo(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false
  const terminal = createInterface({ input: process.stdin, output: process.stderr })
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim())
  } finally {
    terminal.close()
  }
}
