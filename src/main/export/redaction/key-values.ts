// What the value of an API key, secret or token assignment may be (`*_API_KEY=`, `client_secret:`,
// `"x_api_key": "…"`, `Authorization: Bearer …`). As with passwords, the key is certain and
// the value is not: READMEs, .env.example files and code are full of stand-ins where the key
// would go. These decide, after a rule's regex, whether the value is a secret to hide.
import { isPasswordPlaceholder, looksLikeCodeReference } from './password-values'

/**
 * Stand-ins for a key: the password ones (empty, `***`, `<…>`, `${VAR}`, `$VAR`, `null`…),
 * anything with an ellipsis or a run of x's (`sk-...`, `xxxx-xxxx`), and phrases of letters
 * only that say "put yours here" (`your-key-here`, `YOUR_API_KEY`, `replace_me`) and the
 * key's own name (`API_KEY=api_key`).
 */
export function isKeyPlaceholder(value: string): boolean {
  const trimmed = value.trim()
  if (isPasswordPlaceholder(trimmed)) return true
  if (/\.\.\.|…|x{4,}|\*{3,}|[<>]|\$\(|\{\{|%[A-Za-z_]+%/i.test(trimmed)) return true
  return STAND_IN_PHRASE.test(trimmed) || STAND_IN_WORD.test(trimmed)
}

const STAND_IN_PHRASE = /^(?:your|my|an?|the|example|sample|dummy|fake|test|placeholder|replace|insert|put|enter|add|paste|some)(?:[-_ .]?[a-z]+)*$/i
// Not "secret" or "changeme": like weak default passwords, those are often the real value.
const STAND_IN_WORD = /^(?:token|key|api[-_]?key|access[-_]?token|client[-_]?secret|secret[-_]?key|private[-_]?key|bearer|none|nil|todo|tbd|redacted|hidden|masked)$/i

/**
 * A value that reads like a credential rather than a word: at least 8 characters, no spaces,
 * not a path or URL, and either letters with digits or (16 characters or more) both cases.
 * `hello`, `my-secret-name` and `./token.txt` are not; `a1b2c3d4`, `wJalrXUtnFEMIbPxRfiCY` are.
 */
export function looksLikeCredential(value: string): boolean {
  if (value.length < 8 || /\s/.test(value) || /^(?:\.{0,2}\/|~\/|[a-z][a-z0-9+.-]*:\/\/)/i.test(value)) return false
  if (/^\d+$/.test(value)) return false
  const letters = /[A-Za-z]/.test(value)
  const digits = /[0-9]/.test(value)
  return (letters && digits) || (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value))
}

/**
 * `this.apiKey`, `settings.SECRET_KEY`, `process.env.TOKEN`: a dotted path of names, no digit
 * in it. A dotted token (`ya29.a0AfH6SMBx`) has digits among its letters.
 */
export function isCodeReference(value: string): boolean {
  return looksLikeCodeReference(value) && !/\d/.test(value)
}

/** Where the whole key starts whose last word is at `keywordStart`: the name characters before it (`DB_`, `--`, `PG`). */
function keyStartOf(input: string, keywordStart: number): number {
  let start = keywordStart
  while (start > 0 && /[A-Za-z0-9_-]/.test(input.charAt(start - 1))) start--
  return start
}

/**
 * Whether a keyword found inside a longer name starts a word of that name: after `_`, `-` or
 * `.`, at the start, or at a camelCase hump (`clientSecret`, `googleApiKey`). Not `mytoken` or
 * `nosecret`, where the keyword is only letters of another word.
 */
export function startsNamePart(input: string, keywordStart: number): boolean {
  const before = input.charAt(keywordStart - 1)
  if (keywordStart === 0 || !/[A-Za-z0-9]/.test(before)) return true
  return /[a-z0-9]/.test(before) && /[A-Z]/.test(input.charAt(keywordStart))
}

/**
 * `KEY=value` with nothing between: an upper-case environment variable, a `--flag=`, a
 * `?query=`/`&query=` parameter or a dotted properties key (`spring.datasource.password=`).
 * Such a line carries the value itself, so any value that is not a stand-in is the secret.
 */
export function isAssignmentOfLiteral(match: RegExpExecArray): boolean {
  if (match.groups?.separator !== '=' || !/^[a-z_-]+=/i.test(match[0])) return false
  const keyStart = keyStartOf(match.input, match.index)
  const key = match.input.slice(keyStart, match.index + match[0].indexOf('='))
  const before = match.input.charAt(keyStart - 1)
  return key === key.toUpperCase() || key.startsWith('-') || before === '?' || before === '&' || before === '.'
}
