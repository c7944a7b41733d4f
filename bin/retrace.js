#!/usr/bin/env node
'use strict'
// The `retrace` command. Retrace needs Node 22 or newer (better-sqlite3 13 ships its prebuilt
// binary for Node >= 22 only); in this repository the `node` devDependency provides it, so an
// older Node re-runs this file under that one.
const { spawnSync } = require('node:child_process')
const { existsSync } = require('node:fs')
const path = require('node:path')

const root = path.join(__dirname, '..')
if (Number(process.versions.node.split('.')[0]) < 22) {
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
  const result = spawnSync(bundled, [__filename, ...process.argv.slice(2)], { stdio: 'inherit' })
  process.exit(result.status ?? 1)
}

const cli = path.join(root, 'out', 'main', 'cli.js')
if (!existsSync(cli)) {
  console.error(`retrace: the app is not built yet. Run \`npm run build\` in ${root}.`)
  process.exit(1)
}
require(cli).main()
