/**
 * The scan's deflate helper: a thread the scan worker starts (scan/worker/deflate-helper.mts)
 * to raw-deflate the small files a scan stores inline while the scan worker walks on. Deflating
 * was a quarter of the walk of a capture after a 100-file edit; on a second core it overlaps the
 * walk's stats instead of following them. It only compresses: what is stored, and whether
 * packing saved enough to be worth it, the scan worker decides.
 *
 * Built, an entry of its own; from source, Node runs it as it is, under the rule of
 * scan-worker.mts (see there). It needs nothing of the app but the protocol's types.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { deflateRawSync, type ZlibOptions } from 'node:zlib'
import type { DeflateHelperData, DeflateReply, DeflateRequest } from './protocol.ts'

if (!parentPort) throw new Error('deflate-worker.mts must run in a worker thread')
const port = parentPort

let options: ZlibOptions = {}

port.on('message', (request: DeflateRequest) => {
  if (request.type === 'options') {
    options = request.dictionary ? { ...request.deflate, dictionary: request.dictionary } : request.deflate
    return
  }
  const packed = deflateRawSync(new Uint8Array(request.bytes), options)
  // A copy of its own to transfer: a small result may be a view into Node's shared buffer pool.
  const own = new Uint8Array(packed)
  port.postMessage({ id: request.id, packed: own } satisfies DeflateReply, [own.buffer])
})

Atomics.store((workerData as DeflateHelperData).ready, 0, 1)
