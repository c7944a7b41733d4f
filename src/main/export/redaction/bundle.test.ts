import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, describe, expect, it } from 'vitest'
import { createFakeSecrets } from './testing/fake-secrets'

const ROOT = join(__dirname, '../../../..')
// Inside the repository, so the bundle's require()/import() of its dependencies resolves in node_modules.
const CACHE = join(ROOT, 'node_modules/.cache')

describe('the redaction engine bundled like the main-process build', () => {
  mkdirSync(CACHE, { recursive: true })
  const outDir = mkdtempSync(join(CACHE, 'retrace-redaction-bundle-'))
  afterAll(() => rmSync(outDir, { recursive: true, force: true }))

  // electron-vite builds the main process (out/main/*.js, the CLI included) as CommonJS with
  // dependencies left external; both secretlint packages are ESM-only. This bundles the engine
  // the same way and runs it in a plain Node process, where a require() of them would be the
  // first thing to break.
  it('loads secretlint and finds secrets from CommonJS', async () => {
    await build({
      configFile: false,
      logLevel: 'silent',
      root: ROOT,
      build: { outDir, emptyOutDir: true, ssr: join(__dirname, 'index.ts'), minify: false, rollupOptions: { output: { format: 'cjs', entryFileNames: 'redaction.cjs' } } }
    })
    const fake = createFakeSecrets(5)
    const texts = [`token ${fake.githubToken()}`, `Authorization: Bearer ${fake.jwt()}`]
    const script = `
      const { scanForSecrets, redactText } = require(${JSON.stringify(join(outDir, 'redaction.cjs'))})
      const texts = JSON.parse(process.env.TEXTS).map((text, i) => ({ place: { id: String(i), label: 'text ' + i }, text }))
      scanForSecrets(texts).then((findings) => {
        console.log(JSON.stringify({ rules: findings.map((f) => f.ruleId), redacted: texts.map((t) => redactText(t.text, findings.filter((f) => f.placeId === t.place.id))) }))
      }, (error) => { console.error(error); process.exit(1) })`
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, TEXTS: JSON.stringify(texts) } })
    expect(run.stderr).toBe('')
    expect(JSON.parse(run.stdout)).toEqual({
      rules: ['@secretlint/secretlint-rule-github', 'retrace/jwt'],
      redacted: ['token [REDACTED: GitHub Token]', 'Authorization: Bearer [REDACTED: JSON Web Token]']
    })
  })
})
