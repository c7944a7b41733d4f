import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'

/**
 * `electron-vite dev` serves the renderer with React Fast Refresh, which needs an inline
 * preamble script and a WebSocket. Relax the page's CSP for the dev server only; built files
 * keep `script-src 'self'`.
 */
const devServerCsp: Plugin = {
  name: 'retrace-dev-server-csp',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws: http://localhost:*")
}

// One build for the three Electron processes. The main build also emits the CLI (out/main/cli.js):
// it shares the services with the desktop app and never imports electron.
export default defineConfig({
  main: {
    build: {
      // zod bundled, not required at run time: its package loads every locale and its whole
      // classic API (~90 ms of each CLI command's start, an agent hook's included); bundled, only
      // what the contract uses is in, ~50 ms less.
      externalizeDeps: { exclude: ['zod'] },
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/electron/main.ts'),
          cli: resolve(__dirname, 'src/main/cli/main.ts'),
          // An agent's hook hands its turn to a running Retrace before loading the CLI: a small file of its own.
          'hook-handoff': resolve(__dirname, 'src/main/cli/hooks/handoff-client.ts'),
          // The workspace scanner (with its deflate helper) and the blob writers run in worker threads; each must be an entry of its
          // own. What they share with the main process (journal/shared-constants.mts) lands in a small chunk under out/main/chunks/.
          'scan-worker': resolve(__dirname, 'src/main/journal/scan/scan-worker.mts'),
          'deflate-worker': resolve(__dirname, 'src/main/journal/scan/deflate-worker.mts'),
          'blob-writer-worker': resolve(__dirname, 'src/main/journal/blob-writer-worker.mts'),
          // Line diffs run on threads of their own, never on the thread that answers requests (R27).
          'diff-worker': resolve(__dirname, 'src/main/journal/line-diff/diff-worker.mts'),
          // The import reads and parses agents' files on a thread of its own while the main thread writes.
          'import-parse-worker': resolve(__dirname, 'src/main/sources/parse-thread/import-parse-worker.mts'),
          // Agents' SQLite databases are read in a process of its own (killed if a read stalls): a file of its own too.
          'foreign-db-reader': resolve(__dirname, 'src/main/sources/foreign-db/foreign-db-reader.mts')
        }
      }
    }
  },
  preload: {
    build: {
      // A sandboxed preload can only require('electron'): bundle everything else into one CJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react(), devServerCsp],
    build: {
      minify: true,
      // The renderer is loaded from disk (or localhost), not over a slow network: one ~600 kB
      // bundle is fine, and splitting it would only add requests.
      chunkSizeWarningLimit: 1024,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } }
    }
  }
})
