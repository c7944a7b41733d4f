import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { contractCaller } from '../sources/testing/import-testbed'
import { tempDir, tempRuntime } from '../testing/temp-runtime'
import { ExportService } from './export-service'
import { parseExportJson } from './json-format'
import { createFakeSecrets } from './redaction/testing/fake-secrets'

// The redaction test: secrets planted in every place a string of an export can hide —
// message text, tool arguments, tool results, diffs (file contents), the title, file names —
// found by the real scanner (secretlint's preset and our rules), one finding per secret, and
// gone from every format.
describe('an export with secrets planted everywhere', () => {
  let ws: AgentWorkspace
  afterEach(() => ws.dispose())

  function plant() {
    const fake = createFakeSecrets(4242)
    const secrets = {
      title: fake.githubToken(),
      prompt: fake.stripeLiveKey(),
      reasoning: fake.jwt(),
      toolArgument: fake.slackToken(),
      toolResult: fake.awsAccessKeyId(),
      answer: fake.githubToken(),
      fileContent: fake.stripeLiveKey(),
      fileName: fake.githubToken()
    }
    ws = agentWorkspace({ 'config/app.env': 'MODE=dev\n' })
    ws.rt.store.sessions.setTitle(ws.rt.store.sessions.require(ws.writer.id).rowId, `deploy with ${secrets.title}`)
    ws.writer.append({ role: 'user', content: `Deploy it. The payment key is ${secrets.prompt} for now.` })
    ws.writer.append({ role: 'reasoning', content: `The session token ${secrets.reasoning} is in the header.` })
    ws.writer.append({ role: 'tool_call', toolName: 'Bash', toolCallId: 'c1', toolInput: { command: `curl -H "Authorization: Bearer ${secrets.toolArgument}" https://slack.com/api/chat.postMessage` } })
    ws.writer.append({ role: 'tool_result', toolName: 'Bash', toolCallId: 'c1', content: `env: AWS_ACCESS_KEY_ID=${secrets.toolResult}` })
    ws.agent.write('config/app.env', `MODE=prod\nSTRIPE_KEY=${secrets.fileContent}\n`)
    ws.agent.write(`tokens/${secrets.fileName}.txt`, 'rotated\n')
    ws.writer.append({ role: 'assistant', content: `Deployed. I used the token ${secrets.answer}.` })
    ws.writer.closeTurn()
    return secrets
  }

  it('finds each one once, and no format carries any of them', async () => {
    const secrets = plant()
    const planted = Object.values(secrets)
    const service = new ExportService(ws.rt)
    for (const format of ['html', 'md', 'json'] as const) {
      const review = await service.review({ sessionId: ws.writer.id, format, withFiles: format === 'json' })
      // One finding per planted secret; JSON with files also carries the changed file's content,
      // a second copy of the secret planted in it.
      expect(review.findings.map((finding) => finding.placeLabel), format).toHaveLength(planted.length + (format === 'json' ? 1 : 0))
      for (const secret of planted) expect(review.findings.some((finding) => masks(finding.masked, secret)), `${format}: ${secret.slice(0, 6)}… found`).toBe(true)
      const rendered = await service.render({ sessionId: ws.writer.id, format, withFiles: format === 'json', redact: true, keep: [], token: review.token })
      for (const secret of planted) expect(rendered.content, `${format} carries a planted secret`).not.toContain(secret)
      expect(rendered.redactedCount).toBe(review.findings.length)
    }
  })

  it('keeps the findings the user kept, and hides the rest', async () => {
    const secrets = plant()
    const service = new ExportService(ws.rt)
    const review = await service.review({ sessionId: ws.writer.id, format: 'md', withFiles: false })
    const kept = review.findings.filter((finding) => finding.placeLabel.toLowerCase().includes('reasoning'))
    expect(kept).toHaveLength(1)
    const rendered = await service.render({ sessionId: ws.writer.id, format: 'md', withFiles: false, redact: true, keep: kept.map((finding) => finding.id), token: review.token })
    expect(rendered.content).toContain(secrets.reasoning)
    expect(rendered.content).not.toContain(secrets.prompt)
    expect(rendered.redactedCount).toBe(review.findings.length - 1)
  })
})

/** Whether `masked` (e.g. "ghp_…(33 more)…9eL") masks `secret`: same start and end. */
function masks(masked: string, secret: string): boolean {
  const [head = '', tail = ''] = masked.split(/…\(\d+ more\)…|…/)
  return secret.startsWith(head) && secret.endsWith(tail)
}

// Files that are not UTF-8 go into a JSON export with files as base64: a NUL, a stray Latin-1
// byte, a UTF-16 text from a Windows editor. Their secrets are secrets all the same.
describe('a JSON export with files that are not UTF-8', () => {
  let ws: AgentWorkspace
  const others: (() => void)[] = []
  afterEach(() => {
    ws.dispose()
    others.splice(0).forEach((dispose) => dispose())
  })

  function plantInBytes() {
    const fake = createFakeSecrets(777)
    const secrets = { nul: fake.githubToken(), afterNul: fake.stripeLiveKey(), latin1: fake.githubToken(), utf16: fake.stripeLiveKey() }
    const files = {
      // A NUL and an 0xFF byte each side: no decoder takes this as text.
      'data/cache.bin': Buffer.concat([Buffer.from([0x00, 0x01, 0xff]), Buffer.from(`token=${secrets.nul}`), Buffer.from([0x00]), Buffer.from(`STRIPE_KEY=${secrets.afterNul}`), Buffer.from([0xfe, 0x00])]),
      // Latin-1 "café": the 0xE9 byte is not UTF-8, right before the line with the token.
      'config/legacy.env': Buffer.concat([Buffer.from('NAME=caf'), Buffer.from([0xe9]), Buffer.from(`\nGITHUB_TOKEN=${secrets.latin1}\n`)]),
      // UTF-16LE with its byte-order mark, as Notepad saves "Unicode".
      'notes/keys.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`stripe: ${secrets.utf16}\r\n`, 'utf16le')])
    }
    ws = agentWorkspace()
    ws.writer.append({ role: 'user', content: 'Save the caches.' })
    for (const [path, bytes] of Object.entries(files)) ws.agent.write(path, bytes)
    ws.writer.closeTurn()
    return { secrets, files }
  }

  it('finds the secrets in their bytes and carries the files redacted, at their size, never in clear', async () => {
    const { secrets, files } = plantInBytes()
    const service = new ExportService(ws.rt)
    const review = await service.review({ sessionId: ws.writer.id, format: 'json', withFiles: true })
    for (const secret of Object.values(secrets)) expect(review.findings.some((finding) => masks(finding.masked, secret)), `${secret.slice(0, 6)}… found`).toBe(true)
    expect(review.findings.every((finding) => finding.placeLabel.includes('(binary)'))).toBe(true)
    const rendered = await service.render({ sessionId: ws.writer.id, format: 'json', withFiles: true, redact: true, keep: [], token: review.token })
    const contents = Object.values(parseExportJson(rendered.content).document.fileContents ?? {})
    const carried = contents.map((content) => (content.encoding === 'base64' ? Buffer.from(content.base64, 'base64') : Buffer.alloc(0)))
    expect(carried.map((bytes) => bytes.length).sort()).toEqual(Object.values(files).map((bytes) => bytes.length).sort())
    for (const secret of Object.values(secrets)) {
      expect(rendered.content).not.toContain(secret)
      for (const bytes of carried) {
        expect(bytes.includes(Buffer.from(secret, 'latin1'))).toBe(false)
        expect(bytes.includes(Buffer.from(secret, 'utf16le'))).toBe(false)
      }
    }
    expect(carried.map((bytes) => bytes.toString('latin1')).join()).toContain('[REDACTED: GitHub Token]')
    expect(carried.map((bytes) => bytes.toString('utf16le')).join()).toContain('[REDACTED: Stripe')
  })

  it('imports such an export, saying the redacted files were imported as carried', async () => {
    const { files } = plantInBytes()
    const exported = await contractCaller(ws.rt)('export.render', { sessionId: ws.writer.id, format: 'json', withFiles: true })
    const other = tempRuntime()
    const folder = tempDir('retrace-import-binary-')
    others.push(() => other.dispose(), () => folder.dispose())
    const imported = await contractCaller(other)('export.importJson', { workspaceId: other.store.workspaces.open(folder.path, 'colleague'), json: exported.content })
    expect(imported).toMatchObject({ fileChanges: Object.keys(files).length, skipped: [], contentsChanged: Object.keys(files).length })
    expect([...imported.contentsChangedPaths].sort()).toEqual(Object.keys(files).sort())
  })
})
