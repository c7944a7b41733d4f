import type { lintSource as LintSource } from '@secretlint/core'
import type * as RecommendedPreset from '@secretlint/secretlint-rule-preset-recommend'
import type { RawMatch } from './raw-match'
import { secretlintRuleName } from './secretlint-names'

type LintConfig = Parameters<typeof LintSource>[0]['options']['config']
type LintMessage = Awaited<ReturnType<typeof LintSource>>['messages'][number]
type Preset = Pick<typeof RecommendedPreset, 'creator' | 'rules'>

/** Lints one string with secretlint's recommended preset (as configured below). */
export type SecretlintScanner = (content: string) => Promise<RawMatch[]>

const AWS_RULE = '@secretlint/secretlint-rule-aws'
const FILTER_COMMENTS_RULE = '@secretlint/secretlint-rule-filter-comments'

/**
 * The recommended preset's rules as Retrace runs them: each listed on its own (the preset
 * exports them for this), with two changes for exports of agent transcripts rather than a
 * repository's files:
 * - AWS access key ids (AKIA…/ASIA… + 16) are checked only with `enableIDScanRule`: a key id
 *   alone is not a credential in a repository, but in an export it names the account's key and
 *   usually sits next to its secret. AWS account ids stay allowed: they are not secrets.
 * - No `secretlint-disable` comments: they are a repository's own opt-out; in a transcript they
 *   are quoted text, and honouring one would switch redaction off for everything after it (in
 *   a batch, for the texts after it too). The rule is left out rather than configured
 *   `disabled` inside the preset, which secretlint 13 does not honour for a preset's rules.
 */
export function retracePresetConfig(preset: Preset): LintConfig {
  return {
    rules: preset.rules
      .filter((rule) => rule.meta.id !== FILTER_COMMENTS_RULE)
      .map((rule) =>
        rule.meta.id === AWS_RULE ? { id: rule.meta.id, rule, options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] } : { id: rule.meta.id, rule }
      )
  }
}

/** The preset as its README configures it, unchanged: the baseline the tests and the benchmark compare with. */
export function recommendedPresetConfig(preset: Preset): LintConfig {
  return { rules: [{ id: preset.creator.meta.id, rule: preset.creator }] }
}

interface SecretlintModules {
  lintSource: typeof LintSource
  preset: Preset
}

let loading: Promise<SecretlintModules> | undefined

/**
 * The packages are ESM-only, and the main-process build is CommonJS with dependencies left
 * external. A dynamic import() loads an ES module from CommonJS in every Node and Electron we
 * run on, and defers loading the preset (~650 kB) until an export actually scans.
 */
export function loadSecretlint(): Promise<SecretlintModules> {
  loading ??= Promise.all([
    import('@secretlint/core'),
    import('@secretlint/secretlint-rule-preset-recommend'),
    import('@secretlint/profiler')
  ]).then(([core, preset, profiler]) => {
    // secretlint profiles every call by default: a performance.mark() per rule per call, each
    // kept in the process's performance timeline and in the profiler's own lists. Over the
    // thousands of calls of one export that grows without bound (a 10,000-message export
    // can run the heap out). The profiler is one per process, shared with lintSource.
    profiler.secretLintProfiler.setEnabled(false)
    return { lintSource: core.lintSource, preset: { creator: preset.creator, rules: preset.rules } }
  })
  return loading
}

/** A scanner over secretlint with the given config (default: Retrace's, above). */
export async function createSecretlintScanner(configure: (preset: Preset) => LintConfig = retracePresetConfig): Promise<SecretlintScanner> {
  const { lintSource, preset } = await loadSecretlint()
  const config = configure(preset)
  return async (content) => {
    const result = await lintSource({
      // No physical file: rules that read a file from disk by its path (GCP's .p12) stay off.
      source: { content, filePath: 'retrace-export.txt', ext: '.txt', contentType: 'text' },
      options: { config, noPhysicFilePath: true, locale: 'en' }
    })
    return result.messages.map((message) => toRawMatch(content, message))
  }
}

function toRawMatch(content: string, message: LintMessage): RawMatch {
  const [start, end] = secretRange(content, message)
  return { ruleId: message.ruleId, ruleName: secretlintRuleName(message), start, end }
}

/** How far past a reported range a rule's own secret value may start (key, quotes, `=`, spaces). */
const REPORTED_VALUE_REACH = 256

/**
 * Where the secret is. Rules report the secret value in `data` and usually its exact range, but
 * not always: the AWS secret-key rule reports the match's start with the value's length, which
 * covers `AWS_SECRET_ACCESS_KEY=wJal…` and would leave the end of the key in an export. When the
 * reported value is not at the reported range but just after it, use where it really is.
 */
export function secretRange(content: string, message: Pick<LintMessage, 'range' | 'data'>): [number, number] {
  const [start, end] = message.range
  const values = Object.values(message.data ?? {}).filter((value): value is string => typeof value === 'string' && value.length >= 4)
  if (values.some((value) => content.startsWith(value, start) && start + value.length === end)) return [start, end]
  let best: [number, number] | null = null
  for (const value of values) {
    const at = content.indexOf(value, start)
    if (at === -1 || at > end + REPORTED_VALUE_REACH) continue
    if (best === null || value.length > best[1] - best[0]) best = [at, at + value.length]
  }
  return best ?? [start, end]
}
