import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { scanWorkers } from './worker-pool'

let dir: string
let idleScript: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'retrace-pool-'))
  idleScript = join(dir, 'idle.mjs')
  writeFileSync(idleScript, `import { parentPort } from 'node:worker_threads'\nparentPort.on('message', () => undefined)\n`)
})
afterEach(() => scanWorkers.close())
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const exited = (thread: { once: (event: 'exit', listener: () => void) => unknown }): Promise<void> => new Promise((resolve) => thread.once('exit', resolve))

describe('the scan worker pool', () => {
  it('hands the worker a scan gave back to the next scan, and starts another while it is taken', () => {
    scanWorkers.warm(idleScript)
    const first = scanWorkers.take(idleScript)
    const second = scanWorkers.take(idleScript) // the first is busy: a new one
    expect(second.thread.threadId).not.toBe(first.thread.threadId)
    scanWorkers.release(first)
    const again = scanWorkers.take(idleScript)
    expect(again.thread.threadId).toBe(first.thread.threadId)
    void again.thread.terminate()
    void second.thread.terminate()
  })

  it('keeps one idle worker per script and ends the others', async () => {
    const a = scanWorkers.take(idleScript)
    const b = scanWorkers.take(idleScript)
    const bGone = exited(b.thread)
    scanWorkers.release(a)
    scanWorkers.release(b)
    await bGone
    const kept = scanWorkers.take(idleScript)
    expect(kept.thread.threadId).toBe(a.thread.threadId)
    void kept.thread.terminate()
  })

  it('drops an idle worker that says anything or dies', async () => {
    const chatty = join(dir, 'chatty.mjs')
    writeFileSync(chatty, `import { parentPort } from 'node:worker_threads'\nparentPort.on('message', () => undefined)\nsetTimeout(() => parentPort.postMessage('hello'), 20)\n`)
    scanWorkers.warm(chatty)
    const parked = scanWorkers.take(chatty)
    scanWorkers.release(parked)
    await exited(parked.thread)
    const fresh = scanWorkers.take(chatty)
    expect(fresh.thread.threadId).not.toBe(parked.thread.threadId)
    void fresh.thread.terminate()
  })
})
