import { readdirSync, readFileSync } from 'node:fs'

/** This process's children that are the flush helper's shell (the workers' children are the process's). */
export function helperShells(): number[] {
  const shells: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (Number(fields[1]) === process.pid && cmdline.includes('--file-system')) shells.push(Number(entry))
    } catch {
      // The process ended meanwhile.
    }
  }
  return shells
}
