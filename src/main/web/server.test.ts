import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { tempRuntime } from '../testing/temp-runtime'
import { startWebServer, type WebServer } from './server'

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw HTTP request, so the test controls Host and Origin exactly as an attacker could. */
function send(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: options.method ?? 'POST', path: options.path, headers: options.headers }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => (body += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('web binding', () => {
  const rt = tempRuntime()
  let server: WebServer
  let port: number
  const token = 'test-token-0123456789'
  const host = () => `127.0.0.1:${port}`
  const rpc = (method: string, headers: Record<string, string>, body = '{}') => send(port, { path: `/api/rpc/${method}`, headers, body })

  beforeAll(async () => {
    const renderer = join(rt.store.dataDir, 'renderer')
    mkdirSync(renderer)
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Retrace</title>')
    server = await startWebServer({ runtime: rt, token, rendererDir: renderer })
    port = server.port
  })
  afterAll(async () => {
    await server.close()
    rt.dispose()
  })

  it('listens on 127.0.0.1 and prints a URL carrying the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${port}/?token=${token}`)
  })

  it('answers a call that has the token, the right Host and its own Origin', async () => {
    const reply = await rpc('app.info', { Host: host(), Origin: `http://${host()}`, 'X-Retrace-Token': token })
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.body)).toMatchObject({ ok: true, data: { name: 'Retrace', binding: 'web' } })
  })

  it.each([
    ['no token', {}],
    ['a wrong token', { 'X-Retrace-Token': 'wrong' }],
    ['a token of the right length but wrong', { 'X-Retrace-Token': 'test-token-0123456780' }]
  ])('refuses a call with %s', async (_label, headers) => {
    const reply = await rpc('workspaces.listRecent', { Host: host(), ...headers })
    expect(reply.status).toBe(403)
    expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED' } })
  })

  it('refuses a wrong Host (DNS rebinding) even with the token', async () => {
    const reply = await rpc('app.info', { Host: `attacker.example:${port}`, 'X-Retrace-Token': token })
    expect(reply.status).toBe(403)
    expect(reply.body).toContain('attacker.example')
  })

  it('refuses a foreign Origin even with the token', async () => {
    const reply = await rpc('app.info', { Host: host(), Origin: 'https://evil.example', 'X-Retrace-Token': token })
    expect(reply.status).toBe(403)
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 'UNAUTHORIZED' } })
  })

  it('turns invalid JSON and invalid input into VALIDATION errors', async () => {
    const headers = { Host: host(), 'X-Retrace-Token': token }
    expect(JSON.parse((await rpc('app.info', headers, '{not json')).body)).toMatchObject({ error: { code: 'VALIDATION' } })
    const invalid = await rpc('sessions.list', headers, JSON.stringify({ workspaceId: -1 }))
    expect(invalid.status).toBe(200)
    expect(JSON.parse(invalid.body)).toMatchObject({ error: { code: 'VALIDATION' } })
    expect((await send(port, { method: 'GET', path: '/api/rpc/app.info', headers })).status).toBe(405)
    expect(JSON.parse((await rpc('nope.nope', headers)).body)).toMatchObject({ error: { code: 'UNKNOWN_METHOD' } })
  })

  it('survives malformed requests: bad percent-encoding, odd paths, a huge body', async () => {
    const headers = { Host: host(), 'X-Retrace-Token': token }
    const malformed = await send(port, { path: '/api/rpc/%E0%A4%A', headers, body: '{}' })
    expect(malformed.status).toBe(400)
    expect(JSON.parse(malformed.body)).toMatchObject({ error: { code: 'VALIDATION' } })
    expect((await send(port, { method: 'GET', path: '/%E0%A4%A', headers: { Host: host() } })).status).toBeLessThan(500)
    const huge = await send(port, { path: '/api/rpc/app.info', headers, body: 'x'.repeat(2 * 1024 * 1024) }).catch(() => null)
    if (huge) expect(huge.status).toBe(400)
    // Still alive and answering.
    expect((await rpc('app.info', headers)).status).toBe(200)
  })

  it('serves the app with the CSP and no-referrer headers, and refuses a wrong Host for it too', async () => {
    const page = await send(port, { method: 'GET', path: '/', headers: { Host: host() } })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>Retrace</title>')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect((await send(port, { method: 'GET', path: '/', headers: { Host: 'rebind.example' } })).status).toBe(403)
  })

  it('streams data.changed events over a WebSocket that presents the token', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events?token=${token}`, { origin: `http://${host()}` })
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const received = new Promise<unknown>((resolve) => ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()))))
    const workspaceId = rt.store.workspaces.open(rt.store.dataDir, 'ws')
    rt.recorder.startSession({ workspaceId })
    expect(await received).toMatchObject({ name: 'data.changed', payload: { workspaceId } })
    ws.close()
  })

  it('survives a client that sends an oversized frame on the event stream', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events?token=${token}`, { origin: `http://${host()}` })
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const closed = new Promise((resolve) => ws.once('close', resolve))
    ws.send('x'.repeat(200 * 1024))
    await closed
    expect((await rpc('app.info', { Host: host(), 'X-Retrace-Token': token })).status).toBe(200)
  })

  it.each([
    ['no token', '', `http://127.0.0.1`],
    ['a foreign origin', `?token=${token}`, 'https://evil.example']
  ])('refuses a WebSocket with %s', async (_label, query, origin) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/events${query}`, { origin: origin === 'http://127.0.0.1' ? `http://${host()}` : origin })
    const status = await new Promise<number>((resolve) => ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)).once('error', () => resolve(-1)))
    expect(status).toBe(403)
  })
})
