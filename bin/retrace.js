#!/usr/bin/env node
'use strict'
// The `retrace` command. Retrace needs Node 22 or newer (better-sqlite3 13 ships its prebuilt
// binary for Node >= 22 only); in this repository the `node` devDependency provides it, so an
// older Node re-runs this file under that one.
const { spawn } = require('node:child_process')
const { existsSync } = require('node:fs')
const { constants } = require('node:os')
const path = require('node:path')

const root = path.join(__dirname, '..')

/**
 * Run the command in a child under the bundled Node 22. Signals sent to this process (Ctrl-C, a
 * service manager's SIGTERM) are passed on, so the command ends cleanly instead of being left
 * behind, and its exit is this one's.
 */
function runUnderBundledNode() {
  let bundled
  try {
    bundled = require.resolve('node/bin/node', { paths: [root] })
  } catch {
    bundled = undefined
  }
  if (!bundled) {
    console.error(`retrace: Node 22 or newer is required; this is Node ${process.version}. Run \`npm install\` in ${root}, or install Node 22.`)
    process.exit(1)
  }
  const child = spawn(bundled, [__filename, ...process.argv.slice(2)], { stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
  child.on('error', (error) => {
    console.error(`retrace: cannot start ${bundled}: ${error.message}`)
    process.exit(1)
  })
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)))
}

if (Number(process.versions.node.split('.')[0]) < 22) {
  runUnderBundledNode()
} else {
  const cli = path.join(root, 'out', 'main', 'cli.js')
  if (!existsSync(cli)) {
    console.error(`retrace: the app is not built yet. Run \`npm run build\` in ${root}.`)
    process.exit(1)
  }
  // Compiling the bundled CLI is a large part of every command's start-up, which an agent's hooks
  // pay twice a turn: Node keeps the compiled code in the package's own folder, writable only by
  // whoever can change the code itself (a read-only install just compiles each time).
  require('node:module').enableCompileCache?.(path.join(root, 'node_modules', '.cache', 'retrace-compile'))
  const argv = process.argv.slice(2)
  const handoff = path.join(root, 'out', 'main', 'hook-handoff.js')
  if (argv[0] === 'checkpoint' && existsSync(handoff)) {
    // An agent's hook hands its turn to a running Retrace (the app or `retrace serve`) before the
    // CLI is loaded; when none takes it, the CLI does the turn here with the input already read.
    require(handoff)
      .handOffHook(argv)
      .catch(() => ({ handled: false }))
      .then((outcome) => {
        if (!outcome.handled) require(cli).main(outcome.input)
      })
  } else {
    require(cli).main()
  }
}
