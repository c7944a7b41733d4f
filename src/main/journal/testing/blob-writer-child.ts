// Run by blob-crash.test.ts in a child process: store a large file as a blob, slowly enough
// that the parent can kill it half-way through the write.
import { join } from 'node:path'
import { openStore } from '../../store/store'
import { BlobStore } from '../blob-store'

const [dataDir = '', file = ''] = process.argv.slice(2)
const store = openStore(dataDir)
const blobs = new BlobStore(store.blobs, join(dataDir, 'blobs'))
process.stdout.write('writing\n')
await blobs.putFile(file)
process.stdout.write('done\n')
