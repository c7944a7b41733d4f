import { describe, expect, it } from 'vitest'
import { redactText } from './redact'
import type { RawMatch } from './raw-match'
import { scanForSecrets, scanInBatches } from './scan'
import { createFakeSecrets, plantInto, plantedSecrets } from './testing/fake-secrets'
import { fixtureTexts } from './testing/fixture-texts'
import type { ScanInput, SecretFinding } from './types'

const place = (id: string): ScanInput['place'] => ({ id, label: `text ${id}` })
const inputs = (texts: string[]): ScanInput[] => texts.map((text, index) => ({ place: place(String(index)), text }))
const secretOf = (texts: readonly ScanInput[], finding: SecretFinding): string => {
  const text = texts.find((input) => input.place.id === finding.placeId)?.text ?? ''
  return text.slice(finding.start, finding.end)
}

describe('scanForSecrets on planted secrets', () => {
  const background = fixtureTexts()
  const inside = plantedSecrets(createFakeSecrets(101))
  const alone = plantedSecrets(createFakeSecrets(202))
  const texts: ScanInput[] = background.map((input) => ({ ...input }))
  // The first set goes into real transcript texts (start, middle, end of long ones); the second
  // becomes texts of their own between them, so both batching paths carry secrets.
  const spacing = Math.floor(texts.length / (inside.length + 1))
  inside.forEach((planted, index) => {
    const target = texts[20 + index * spacing]
    if (target) target.text = plantInto(target.text, planted.text, [0, 0.5, 1][index % 3] ?? 0)
  })
  alone.forEach((planted, index) => texts.splice(10 + index * spacing, 0, { place: place(`alone-${index}`), text: planted.text }))
  const planted = [...inside, ...alone]

  it('finds each planted secret exactly once, at exactly its range, and nothing else', async () => {
    const findings = await scanForSecrets(texts)
    expect(new Set(planted.map((p) => p.secret)).size).toBe(planted.length)
    expect(findings).toHaveLength(planted.length)
    expect(findings.map((finding) => secretOf(texts, finding)).sort()).toEqual(planted.map((p) => p.secret).sort())
  })

  it('leaves none of them in the redacted texts', async () => {
    const findings = await scanForSecrets(texts)
    const redacted = texts.map((input) => redactText(input.text, findings.filter((finding) => finding.placeId === input.place.id))).join('\n')
    for (const p of planted) expect(redacted, p.kind).not.toContain(p.secret)
    expect(redacted.match(/\[REDACTED: [^\]]+\]/g)).toHaveLength(planted.length)
  })

  it('finds the same in batches as one text per secretlint call', async () => {
    const batched = await scanInBatches(texts, {})
    const oneByOne = await scanInBatches(texts, {}, { batchChars: 0 })
    expect(batched).toEqual(oneByOne)
  })

  it('never shows a whole secret in what the review list displays', async () => {
    const findings = await scanForSecrets(texts)
    for (const finding of findings) {
      const secret = secretOf(texts, finding)
      expect(finding.masked).not.toContain(secret)
      expect(finding.excerpt).not.toContain(secret)
      expect(finding.excerpt).toContain(finding.masked)
      expect(finding.placeLabel).toBe(texts.find((input) => input.place.id === finding.placeId)?.place.label)
    }
  })
})

describe('scanForSecrets excerpts', () => {
  const fake = createFakeSecrets(404)

  it('show nothing of a secret no rule finds beside one a rule finds', async () => {
    const unknowns = [fake.opaqueKey(), fake.opaqueKey(), fake.opaqueKey(), `${fake.password()}x`]
    const found = [fake.githubToken(), fake.stripeLiveKey(), fake.jwt(), fake.githubToken()]
    const texts = inputs([
      `gh auth login --with-token <<< ${found[0]} && acme login ${unknowns[0]}`,
      JSON.stringify({ stripe: found[1], acme: unknowns[1] }),
      `${unknowns[2]}:${found[2]}`,
      `mysql -p${unknowns[3]} -e "select 1" # token ${found[3]}`
    ])
    const findings = await scanForSecrets(texts)
    expect(findings.map((finding) => secretOf(texts, finding))).toEqual(found)
    for (const [index, unknown] of unknowns.entries()) {
      const excerpt = findings[index]?.excerpt ?? ''
      for (let i = 0; i + 5 <= unknown.length; i++) expect(excerpt, `excerpt ${index}: ${excerpt}`).not.toContain(unknown.slice(i, i + 5))
    }
    expect(findings[0]?.excerpt).toMatch(/^gh auth login --with-token <<< ghp_…\(\d+ more\)…\w{3} && acme login •••$/)
  })
})

describe('scanForSecrets on ordinary text', () => {
  it('finds nothing in the real Claude Code transcripts of fixtures/claude-code', async () => {
    const texts = fixtureTexts()
    expect(texts.length).toBeGreaterThan(500)
    const findings = await scanForSecrets(texts)
    expect(findings.map((finding) => `${finding.placeLabel}: ${finding.ruleId} ${finding.excerpt}`)).toEqual([])
  })

  it('finds nothing in code and prose about passwords, tokens and keys', async () => {
    const texts = [
      'def login(username: str, password: str | None = None) -> Session:\n    hashed = bcrypt.hash(password)\n    return Session(token=create_token(user))',
      'The JWT is signed with HS256; its header has "alg" and "typ". Put the Stripe key in STRIPE_SECRET_KEY=${STRIPE_KEY}.',
      'export AWS_ACCESS_KEY_ID=<your key id>\nexport AWS_SECRET_ACCESS_KEY=<your secret>\npassword: "********"',
      '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----',
      'commit 3f2a9c1e8b7d6f5a4c3b2a1f0e9d8c7b6a5f4e3d\nsha512-uQ6ZeWp6A1gJJ8Ra3kMtg9Xs8HqGVfzWxXoDVg2jUGWtbs9QbT3h6Y3kR4JN0D1cVZBnvtDmyhk0XAW6M2C4bQ==',
      '550e8400-e29b-41d4-a716-446655440000 data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='
    ]
    expect(await scanForSecrets(inputs(texts))).toEqual([])
  })
})

describe('scanForSecrets results', () => {
  const fake = createFakeSecrets(303)

  it('comes in the order of the texts, then by position, with one finding per overlap', async () => {
    const [first, second] = [fake.githubToken(), fake.githubToken()]
    const password = fake.password()
    const texts = inputs(['nothing here', `b ${second} a ${first}`, `DB_PASSWORD=${password}`])
    const findings = await scanForSecrets(texts)
    expect(findings.map((finding) => [finding.placeId, secretOf(texts, finding)])).toEqual([
      ['1', second],
      ['1', first],
      ['2', password]
    ])
  })

  it('names the more specific rule where a generic one overlaps it', async () => {
    const stripe = fake.stripeLiveKey()
    const texts = inputs([`STRIPE_PASSWORD=${stripe}`])
    const findings = await scanForSecrets(texts)
    expect(findings.map((finding) => [finding.ruleId, finding.ruleName, secretOf(texts, finding)])).toEqual([['@secretlint/secretlint-rule-stripe', 'Stripe Live Secret Key', stripe]])
  })

  it('gives the same finding ids on a rescan', async () => {
    const texts = inputs([`token ${fake.githubToken()}`])
    const [first] = await scanForSecrets(texts)
    const [again] = await scanForSecrets(texts)
    expect(first?.id).toBeTruthy()
    expect(again?.id).toBe(first?.id)
  })
})

describe('batching', () => {
  const match = (start: number, end: number): RawMatch => ({ ruleId: 'test/rule', ruleName: 'Test', start, end })

  it('scans the texts a match runs across on their own, and drops the crossing match', async () => {
    const calls: string[] = []
    // A rule that reports one match from inside the first text into the second, in batches only.
    const secretlint = (content: string): Promise<RawMatch[]> => {
      calls.push(content)
      return Promise.resolve(content.startsWith('aaaa\n') ? [match(2, 9)] : content === 'aaaa' ? [match(1, 3)] : [])
    }
    const texts = inputs(['aaaa', 'bbbb', 'cccc'])
    const findings = await scanInBatches(texts, {}, { secretlint })
    expect(calls).toEqual(['aaaa\n\u0000\nbbbb\n\u0000\ncccc', 'aaaa', 'bbbb'])
    expect(findings.map((finding) => [finding.placeId, finding.start, finding.end])).toEqual([['0', 1, 3]])
  })

  it('reports progress per batch and stops at an abort between batches', async () => {
    const texts = inputs(Array.from({ length: 10 }, (_, index) => `text number ${index}`))
    const progress: Array<[number, number]> = []
    const controller = new AbortController()
    const scan = scanInBatches(texts, { signal: controller.signal, onProgress: (done, total) => {
      progress.push([done, total])
      if (done >= 4) controller.abort()
    } }, { batchChars: 30, secretlint: () => Promise.resolve([]) })
    await expect(scan).rejects.toThrow(/abort/i)
    expect(progress).toEqual([[2, 10], [4, 10]])
  })

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(scanForSecrets(inputs(['x']), { signal: controller.signal })).rejects.toThrow(/abort/i)
  })
})
