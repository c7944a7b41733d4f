// What the password rule's value may be. The rule's key is certain (it ends in "password"),
// the value is not: docs, configs and code are full of placeholders and references where a
// literal would go. These decide, after the regex, whether the value is a secret to hide.

/**
 * "Fill this in" values: empty, masks (`***`, `xxxx`), templates (`<password>`, `${DB_PASS}`,
 * `{{ pass }}`, `%PASS%`, `$PGPASS`), the key's own name and null-ish literals or type names.
 */
export function isPasswordPlaceholder(value: string): boolean {
  const trimmed = value.trim()
  if (trimmed === '') return true
  if (/^(.)\1*$/.test(trimmed)) return true
  if (/^[*•.…xX#?_-]+$/.test(trimmed)) return true
  if (/^<[^>]*>$|^\[[^\]]*\]$|\$\{[^}]*\}|\{\{[^}]*\}\}|^%[A-Za-z_][A-Za-z0-9_]*%$|^\$[A-Za-z_][A-Za-z0-9_]*$/.test(trimmed)) return true
  return PLACEHOLDER_WORDS.test(trimmed)
}

// Not "secret" or "changeme": those are real (weak, default) passwords often enough to hide.
const PLACEHOLDER_WORDS =
  /^(?:null|nil|none|undefined|true|false|string|str|text|redacted|hidden|masked|required|optional|empty|todo|tbd|(?:your|my|example|sample|dummy|fake)?[ _-]?(?:password|passwd|pass|pwd|passphrase)(?:[ _-]?(?:here|goes[ _-]?here))?)$/i

/** `this.password`, `config.db.pass`, `os.environ`: an identifier path, not a value. */
export function looksLikeCodeReference(value: string): boolean {
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)
}

/**
 * An unquoted word after `password:` in prose or YAML: a secret if it has a digit or a symbol
 * other than the sentence's own closing punctuation ("Password: Required." is prose).
 */
export function looksLikeSecretValue(value: string): boolean {
  const word = value.replace(/[.,:;!?]+$/, '')
  return word.length >= 4 && !isPasswordPlaceholder(word) && /[0-9]|[^A-Za-z0-9_\s]/.test(word)
}
