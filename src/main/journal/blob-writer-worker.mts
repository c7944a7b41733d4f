/**
 * A blob writer thread: one lane of several of a large rewind (blob-writer/replace-lane.mts and
 * rewind/threaded-replace.ts). It decodes each inline blob, checks it against its hash, writes
 * it to a temp file and replaces the target with it. A rewind spends most of its time in this
 * per-file work; threads of its own let it run on every core. One thread of the pool is the
 * flusher instead: it runs file-system flushes through a helper process it keeps
 * (blob-writer/flush-helper.mts), for the lanes (serveFlushes) and for `sync` requests.
 *
 * This file is only the message loop. Built, it is an entry of its own with its imports bundled
 * in; from source, Node runs it as it is, so it and the modules it imports follow the rule of
 * scan/scan-worker.mts: imports with their extension, erasable TypeScript only, nothing of the
 * app at run time beyond its own blob-writer/*.mts and shared-constants.mts.
 */
import { parentPort } from 'node:worker_threads'
import type { WriterReply, WriterRequest } from './blob-writer-protocol.ts'
import { FlushHelpers } from './blob-writer/flush-helper.mts'
import { prepareFlushes, serveFlushes, syncFileSystem } from './blob-writer/flusher.mts'
import { ReplaceLane } from './blob-writer/replace-lane.mts'
import { READY_REPLY_ID } from './shared-constants.mts'

if (!parentPort) throw new Error('blob-writer-worker.mts must run in a worker thread')
const port = parentPort

const helpers = new FlushHelpers()

port.on('message', (request: WriterRequest) => {
  if (request.kind === 'replace') port.postMessage(new ReplaceLane(request).run())
  else if (request.kind === 'sync') void syncFileSystem(helpers, request).then((reply) => port.postMessage(reply))
  else if (request.kind === 'prepare-flushes') port.postMessage(prepareFlushes(helpers, request))
  else void serveFlushes(helpers, request).then((reply) => port.postMessage(reply))
})

// Loaded: tell the pool.
port.postMessage({ id: READY_REPLY_ID, ok: true } satisfies WriterReply)
