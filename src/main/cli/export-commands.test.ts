import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseExportJson } from '../export/json-format'
import { createFakeSecrets } from '../export/redaction/testing/fake-secrets'
import { recordSampleSession } from '../export/testing/sample-session'
import { agentWorkspace } from '../journal/testing/agent-workspace'
import { tempDir } from '../testing/temp-runtime'
import { runCli } from './main'

const SECRET = 'AKIAIOSFODNN7EXAMPLF'

describe('retrace export / import-json', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => cleanups.splice(0).forEach((dispose) => dispose()))
  let out: string[] = []
  let err: string[] = []
  const io = { out: (text: string) => out.push(text), err: (text: string) => err.push(text) }

  function setup() {
    const ws = recordSampleSession(`deploy with ${SECRET}`)
    const files = tempDir('retrace-export-cli-')
    cleanups.push(() => ws.dispose(), () => files.dispose())
    out = []
    err = []
    const run = (...args: string[]) => runCli([...args, '--data-dir', ws.rt.store.dataDir], io, {})
    return { ws, run, dir: files.path }
  }

  it('refuses an --out file that exists before scanning anything, and leaves it as it was (R40)', async () => {
    const { ws, run, dir } = setup()
    const page = join(dir, 'taken.html')
    writeFileSync(page, 'mine\n')
    expect(await run('export', ws.writer.id, '--out', page)).toBe(1)
    expect(err).toEqual([`retrace: ${page} already exists. Pass --force to replace it, or choose another --out.`])
    expect(readFileSync(page, 'utf8')).toBe('mine\n')
    err = []
    expect(await run('export', '--workspace', ws.root, '--out', page)).toBe(1)
    expect(err).toEqual([`retrace: ${page} already exists. Pass --force to replace it, or choose another --out.`])
  })

  it('redacts by default: lists the findings on stderr, writes the file, says how many were hidden', async () => {
    const { ws, run, dir } = setup()
    const page = join(dir, 'session.html')
    expect(await run('export', ws.writer.id, '--out', page)).toBe(0)
    const html = readFileSync(page, 'utf8')
    expect(html).not.toContain(SECRET)
    expect(html).toContain('[REDACTED: AWS Access Key ID]')
    const review = err.join('\n')
    expect(review).toMatch(/Redaction: \d+ possible secrets found; \d+ will be hidden\./)
    expect(review).toContain('AWS Access Key ID')
    expect(review).toContain('Turn 2 · User (message 7)')
    expect(review).not.toContain(SECRET)
    expect(out.join('\n')).toMatch(new RegExp(`^Wrote ${page} \\(.* KiB, \\d+ secrets hidden\\)\\.$`))
  })

  it('replaces the workspace folder by its name with --anonymize-path', async () => {
    const { ws, run, dir } = setup()
    ws.rt.recorder.resume(ws.writer.id).append({ role: 'tool_call', toolName: 'Bash', toolCallId: 'call-9', toolInput: { command: `ls ${ws.root}/src` } })
    const plain = join(dir, 'plain.html')
    const shared = join(dir, 'shared.html')
    expect(await run('export', ws.writer.id, '--out', plain)).toBe(0)
    expect(await run('export', ws.writer.id, '--out', shared, '--anonymize-path')).toBe(0)
    expect(readFileSync(plain, 'utf8')).toContain(`ls ${ws.root}/src`)
    const html = readFileSync(shared, 'utf8')
    expect(html).not.toContain(ws.root)
    expect(html).toContain('ls project/src')
  })

  it('exports a workspace as one index page with --workspace, after the same review', async () => {
    const { ws, run, dir } = setup()
    const index = join(dir, 'index.html')
    expect(await run('export', '--workspace', ws.root, '--out', index)).toBe(0)
    const html = readFileSync(index, 'utf8')
    expect(html).toContain('<a href="#s1">agent</a>')
    expect(html).toContain('<a href="#s2">Try a shorter README</a>')
    expect(html).not.toContain(SECRET)
    expect(err.join('\n')).toMatch(/Session 1 · Turn 2 · User \(message 7\)/)
    expect(out.at(-1)).toMatch(new RegExp(`^Wrote ${index} \\(.* KiB, \\d+ secrets hidden\\)\\.$`))
    expect(await run('export', ws.writer.id, '--workspace', ws.root)).toBe(2)
    expect(await run('export', '--workspace', ws.root, '--format', 'md')).toBe(2)
    expect(await run('export', '--workspace', join(dir, 'nowhere'), '--out', join(dir, 'x.html'))).toBe(1)
    expect(err.at(-1)).toContain(`Retrace has no workspace at ${join(dir, 'nowhere')}.`)
    expect(existsSync(join(dir, 'x.html'))).toBe(false)
  })

  it('keeps a reviewed false positive with --keep, and refuses to overwrite without --force', async () => {
    const { ws, run, dir } = setup()
    const md = join(dir, 'session.md')
    expect(await run('export', ws.writer.id, '--out', md)).toBe(0)
    const id = /^(\w+)\s+AWS Access Key ID\s+Turn 2 · User \(message 7\)/m.exec(err.join('\n'))?.[1] ?? ''
    expect(id).not.toBe('')
    expect(await run('export', ws.writer.id, '--out', md, '--keep', id)).toBe(1)
    expect(err.at(-1)).toBe(`retrace: ${md} already exists. Pass --force to replace it, or choose another --out.`)
    expect(await run('export', ws.writer.id, '--out', md, '--keep', `${id},unknown-id`, '--force')).toBe(0)
    expect(err.join('\n')).toContain('--keep unknown-id matches no finding')
    const text = readFileSync(md, 'utf8')
    expect(text).toContain(`Now update the README and add the logo. deploy with ${SECRET}`)
    // The kept prompt, and the table of contents that quotes it: nowhere else.
    expect(text.match(new RegExp(SECRET, 'g'))).toHaveLength(2)
  })

  it('exports JSON with files and without redaction, and imports it into another workspace', async () => {
    const { ws, run, dir } = setup()
    const json = join(dir, 'session.json')
    expect(await run('export', ws.writer.id, '--out', json, '--no-redact', '--with-files')).toBe(0)
    expect(out.at(-1)).toContain('not redacted')
    expect(readFileSync(json, 'utf8')).toContain(SECRET)
    const target = join(dir, 'colleague')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(target)
    expect(await run('import-json', json, '--workspace', target)).toBe(0)
    expect(out.at(-1)).toMatch(/^Imported "agent" as session [\w-]+ into .*colleague: 13 messages, 3 checkpoints, 8 file changes\.$/)
    expect(await run('import-json', json, '--workspace', target)).toBe(1)
    expect(err.at(-1)).toContain('already imported in this workspace')
  })

  it('takes the format from --out, and says what is wrong with a bad flag or file', async () => {
    const { ws, run, dir } = setup()
    expect(await run('export', ws.writer.id, '--out', join(dir, 'a.json'), '--no-redact')).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8'))).toMatchObject({ format: 'retrace-session-export', version: 1 })
    expect(await run('export', ws.writer.id, '--format', 'pdf', '--out', join(dir, 'x'))).toBe(2)
    expect(err.at(-1)).toBe('retrace: --format must be html, md or json, not "pdf".')
    expect(await run('export')).toBe(2)
    expect(await run('export', ws.writer.id, 'stray', '--out', join(dir, 'y.html'))).toBe(2)
    expect(existsSync(join(dir, 'y.html'))).toBe(false)
    expect(await run('export', 'no-such-session', '--out', join(dir, 'z.html'))).toBe(1)
    expect(err.at(-1)).toContain('No session with id no-such-session')
    writeFileSync(join(dir, 'not.json'), '{"hello": 1}')
    expect(await run('import-json', join(dir, 'not.json'), '--workspace', dir)).toBe(1)
    expect(err.at(-1)).toBe('retrace: This JSON is not a Retrace session export (its "format" is not "retrace-session-export").')
    expect(await run('import-json', join(dir, 'missing.json'))).toBe(1)
    expect(err.at(-1)).toContain('There is no file at')
  })

  it('finds secrets in a file that is not UTF-8, never says there are none, and the import says the file was redacted', async () => {
    const fake = createFakeSecrets(99)
    const [github, stripe] = [fake.githubToken(), fake.stripeLiveKey()]
    const ws = agentWorkspace()
    const files = tempDir('retrace-export-cli-')
    cleanups.push(() => ws.dispose(), () => files.dispose())
    out = []
    err = []
    ws.writer.append({ role: 'user', content: 'Cache the credentials.' })
    ws.agent.write('cache/creds.bin', Buffer.concat([Buffer.from([0x00, 0xff]), Buffer.from(`gh=${github}`), Buffer.from([0x00]), Buffer.from(`stripe=${stripe}`), Buffer.from([0x00])]))
    ws.writer.closeTurn()
    const run = (...args: string[]) => runCli([...args, '--data-dir', ws.rt.store.dataDir], io, {})
    const json = join(files.path, 'session.json')
    expect(await run('export', ws.writer.id, '--format', 'json', '--with-files', '--out', json)).toBe(0)
    const review = err.join('\n')
    expect(review).not.toContain('found no secrets')
    expect(review).toMatch(/Redaction: 2 possible secrets found; 2 will be hidden\./)
    expect(review).toContain('GitHub Token')
    expect(review).toContain('Stripe')
    expect(review).not.toContain(github)
    expect(review).not.toContain(stripe)
    const carried = Object.values(parseExportJson(readFileSync(json, 'utf8')).document.fileContents ?? {})
    const bytes = carried.map((content) => (content.encoding === 'base64' ? Buffer.from(content.base64, 'base64').toString('latin1') : '')).join()
    expect(bytes).toContain('[REDACTED: GitHub Token]')
    expect(bytes).not.toContain(github)
    expect(bytes).not.toContain(stripe)
    const target = join(files.path, 'colleague')
    const { mkdirSync } = await import('node:fs')
    mkdirSync(target)
    expect(await run('import-json', json, '--workspace', target)).toBe(0)
    expect(out.join('\n')).toContain('1 file version was redacted in the export: imported as it is (cache/creds.bin).')
  })
})
