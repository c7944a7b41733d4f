import { afterEach, describe, expect, it } from 'vitest'
import { agentWorkspace, type AgentWorkspace } from '../journal/testing/agent-workspace'
import { ExportService } from './export-service'
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
