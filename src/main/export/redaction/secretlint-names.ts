/**
 * A short human name for a secretlint finding. Every preset rule words its English message as
 * "found <what>: <the secret>", so <what> names the finding for all of them (including rules a
 * later preset adds) without a table to keep in sync. Only the part before the first ": " is
 * used, so the secret never reaches the name; a message of another shape falls back to the
 * rule's package name.
 */
export function secretlintRuleName(message: { ruleId: string; message: string }): string {
  const what = /^found (.{3,60}?): /.exec(message.message)?.[1]
  // "GitHub Token(GitHub personal access tokens)", "…private key(p12)": the brackets add nothing to a review list.
  const name = what?.replace(/\s*\([^)]*\)\s*$/, '').trim()
  if (name) return name.charAt(0).toUpperCase() + name.slice(1)
  const rule = message.ruleId.replace(/^.*secretlint-rule-/, '')
  return `${rule} secret`
}
