// A blob writer thread that dies as soon as it gets work (blob-writers.test.ts).
import { parentPort } from 'node:worker_threads'

parentPort.on('message', () => process.exit(3))
