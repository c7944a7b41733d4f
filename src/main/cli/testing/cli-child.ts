// The CLI in a process of its own, from source (vite-node): what `retrace …` runs once built.
import { runCli } from '../main'

const io = { out: (text: string) => process.stdout.write(`${text}\n`), err: (text: string) => process.stderr.write(`${text}\n`) }
process.exitCode = await runCli(process.argv.slice(2), io)
