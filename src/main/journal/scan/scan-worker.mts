/**
 * The workspace scan, in a worker thread so a 300k-file folder never blocks the UI (R20).
 * One worker runs many scans, one at a time (starting a thread costs tens of milliseconds per
 * capture): each `scan` message gets a ScanRun of its own, and a finished scan posts `done`.
 * This file is only the message loop; the scan is in ./worker/ (walk.ts is where to start).
 *
 * Built, this is an entry of its own (electron.vite.config.ts) with its imports bundled in. From
 * source (vitest, the benchmarks), Node runs it as it is, stripping the types: no bundler, no
 * loader hook (one cost each fresh worker a few hundred milliseconds). Hence the rule for it and
 * every module it loads: imports name the file with its extension (`./worker/walk.mts`); what is
 * loaded at run time is `.mts` (Node takes a `.ts` file of this typeless package for CommonJS
 * first, and parses it again with a warning) and erasable TypeScript only (no enums, namespaces
 * or parameter properties); and nothing of the app but the scan's own worker/*.mts,
 * ../shared-constants.mts and ../../fs/vcs-metadata.mts, besides node:* builtins and npm
 * packages. `import type` of any module is fine: it is erased.
 *
 * File-system calls are synchronous: the thread is ours, and a libuv round trip per lstat would
 * dominate a scan of small files. Cancellation is therefore polled with receiveMessageOnPort.
 */
import { parentPort } from 'node:worker_threads'
import type { ParentMessage, WorkerMessage } from './protocol.ts'
import { InlinePacker } from './worker/inline-packer.mts'
import { ScanRun } from './worker/scan-run.mts'

if (!parentPort) throw new Error('scan-worker.mts must run in a worker thread')
const port = parentPort

/** The worker's, kept from scan to scan with its deflate helper. */
const packer = new InlinePacker()
let running: ScanRun | null = null

port.on('message', (message: ParentMessage) => {
  if (message.type === 'cancel') {
    running?.cancel()
    return
  }
  if (running) {
    port.postMessage({ type: 'error', key: null, message: 'a scan was started while another one was running in the same worker' } satisfies WorkerMessage)
    return
  }
  const run = (running = new ScanRun(port, packer))
  void run.run(message.input).finally(() => (running = null))
})
