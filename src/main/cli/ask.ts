import { createInterface } from 'node:readline/promises'

/**
 * Ask a yes/no question on the terminal: true for yes, false for anything else, null when there
 * is no terminal to ask (a script, a service): consent is never assumed, and the caller says so.
 */
export async function askYesNo(question: string): Promise<boolean | null> {
  if (!process.stdin.isTTY) return null
  const terminal = createInterface({ input: process.stdin, output: process.stderr })
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim())
  } finally {
    terminal.close()
  }
}
