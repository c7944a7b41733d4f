/**
 * The `retrace` command in a process of its own, from source (bin/retrace.js runs the same
 * `main()` from the build): for tests that need the real command's exit, output and timing.
 * Run it with vite-node: `node node_modules/vite-node/dist/cli.mjs src/main/testing/cli-process.ts -- ARGS`.
 */
import { main } from '../cli/main'

main()
