import { isAssignmentOfLiteral, isCodeReference, isKeyPlaceholder, looksLikeCredential, startsNamePart } from './key-values'
import type { RawMatch } from './raw-match'
import { isPasswordPlaceholder, looksLikeCodeReference, looksLikeSecretValue } from './password-values'

/**
 * Secrets secretlint's recommended preset does not find, checked beside it on the same
 * decoded strings. Only what the preset misses is here (each has a test showing the preset
 * alone does not find it). Deliberately not here, because the preset already finds them:
 * Stripe live secret and restricted keys (`sk_live_`, `rk_live_`; it leaves the public
 * `pk_live_` alone, as it should), PEM private keys inside JSON strings (`\n` escapes), and AWS
 * access key ids (the preset's AWS rule, with the option Retrace turns on in secretlint-engine).
 */
export interface RetraceRule {
  /** `retrace/<name>`, in the same list as secretlint's rule ids. */
  id: string
  /** Short human name for the review list and the `[REDACTED: …]` marker. */
  name: string
  /**
   * Global, with indices (flags `gd`). The secret is the first named group whose name starts
   * with "secret" that took part in the match, else the whole match: a key and its `=` are
   * matched for context but stay readable.
   */
  regex: RegExp
  /** Rejects what the regex alone cannot (placeholders, a header that is not JSON). */
  validate?: (secret: string, match: RegExpExecArray) => boolean
  /**
   * Strings one of which every match contains: a text with none of them is not searched. A
   * regex pass over a long text costs ten times an indexOf, and most texts hold no Azure key.
   */
  needles?: readonly string[]
}

export const RETRACE_RULES: readonly RetraceRule[] = [
  {
    // The preset's AWS rule ends its secret-key pattern with `\b`, so a key whose last
    // character is `/` or `+` (one in 32 of them) is missed when a newline, a quote or the end of
    // the text follows. Same key names and separators as that rule, with a boundary that works
    // for base64; where both match, findings merge under the preset's rule.
    id: 'retrace/aws-secret-access-key',
    name: 'AWS Secret Access Key',
    regex: /(?:AWS|aws|Aws)?_?(?:SECRET|secret|Secret)_?(?:ACCESS|access|Access)_?(?:KEY|key|Key)\\?["']?\s*(?::|=>|=)\s*\\?["']?(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dg
  },
  {
    // JSON Web Tokens: bearer credentials in Authorization headers, cookies, curl commands.
    // Three (JWE: five) base64url segments; the header is a JSON object, so base64url of `{"`
    // (or `{ `, `{\n`) starts "ey" or "ew". The validator decodes it and wants an "alg", which
    // every JWT header has and random dotted base64 does not.
    id: 'retrace/jwt',
    name: 'JSON Web Token',
    regex: /(?<![A-Za-z0-9_-])e[yw][A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{2,}(?:\.[A-Za-z0-9_-]+){0,3}(?![A-Za-z0-9_-])/dg,
    validate: (secret) => jwtHeaderHasAlg(secret.slice(0, secret.indexOf('.')))
  },
  {
    // `password=…`, `DB_PASSWORD: …`, `"password": "…"`, `--password=…`, also as they appear in
    // a tool input's JSON text (`\"password\": \"…\"`). Only the value is the secret. The key
    // must end in password/passwd/passphrase, so `password_hash` or `passwords` do not count.
    // A quoted value of one line, or an unquoted one up to a delimiter (a control character is
    // one: in a binary file read as text, a NUL ends a value); an unquoted value
    // followed by `(` or `[` is code (`password = getpass()`), not a literal. The regex starts
    // at the word itself: a prefix pattern (`\w*password`) would rescan every long base64 run
    // from each of its characters.
    id: 'retrace/password-assignment',
    name: 'Password',
    regex:
      // Control characters on purpose: they end a value (see above).
      // eslint-disable-next-line no-control-regex
      /(?:password|passwd|passphrase)\\?["'`]?[ \t]*(?<separator>:=|=>|=(?!=)|:)[ \t]*(?:(?<open>\\?["'`])(?<secret>[^\x00-\x08\x0a-\x1f"'`\\]{1,200})\k<open>|(?<secretBare>[^\s\x00-\x1f"'`\\;,&()[\]{}<>|]{1,200})(?=[\s\x00-\x1f"'`\\;,&)\]}<>|]|$))/dgi,
    validate: (secret, match) => {
      if (isPasswordPlaceholder(secret)) return false
      if (match.groups?.secretBare === undefined) return true
      // Unquoted: a code reference (`this.password`, `config.db.pass`) is not a value.
      if (looksLikeCodeReference(secret)) return false
      // `PASSWORD=x`, `--password=x`, `?password=x`: an environment line, a flag, a query
      // string or a properties file carries the value itself. Elsewhere (`password: …` in
      // prose, YAML or a type annotation) an unquoted word is a secret only if it looks like one.
      return isAssignmentOfLiteral(match) || looksLikeSecretValue(secret)
    }
  },
  {
    // Google API keys (Maps, Firebase, Gemini…): "AIza" and 35 base64url characters, alone.
    id: 'retrace/google-api-key',
    name: 'Google API Key',
    regex: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/dg,
    needles: ['AIza']
  },
  {
    // An Azure storage connection string's `AccountKey=`: 64 random bytes, 88 base64 characters.
    id: 'retrace/azure-storage-account-key',
    name: 'Azure Storage Account Key',
    regex: /(?<![A-Za-z0-9])[Aa]ccount[Kk]ey[ \t]*=[ \t]*(?<secret>[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])/dg,
    needles: ['ccountKey', 'ccountkey']
  },
  {
    // A Discord webhook URL: whoever has it posts to the channel as the webhook. The token after
    // the webhook's id (a snowflake) is the secret; the id and the host stay readable.
    id: 'retrace/discord-webhook',
    name: 'Discord webhook token',
    regex: /https?:\/\/(?:(?:canary|ptb)\.)?discord(?:app)?\.com\/api(?:\/v\d{1,2})?\/webhooks\/\d{17,20}\/(?<secret>[A-Za-z0-9_-]{60,80})(?![A-Za-z0-9_-])/dg,
    needles: ['discord']
  },
  {
    // A Redis URL with a password (`redis://user:password@host`, `rediss://:password@host`):
    // the preset's connection-string rule knows Postgres, MySQL and MongoDB URLs, not Redis.
    id: 'retrace/redis-url-password',
    name: 'Redis password',
    regex: /(?<![A-Za-z0-9+.-])rediss?:\/\/[^\s:@/"'`]{0,100}:(?<secret>[^\s:@/"'`]{1,200})@/dgi,
    validate: (secret) => !isPasswordPlaceholder(secret) && !isKeyPlaceholder(secret),
    needles: ['redis', 'Redis', 'REDIS']
  },
  {
    // Twilio: an account SID (AC + 32 hex) or an API key SID (SK + 32 hex) and, right after it,
    // its auth token or key secret (32 characters), as `curl -u SID:TOKEN` and
    // `Client("SID", "TOKEN")` write them. The SID names the account or key: it stays readable.
    id: 'retrace/twilio-credentials',
    name: 'Twilio auth token',
    regex: /(?<![A-Za-z0-9])(?:AC[0-9a-f]{32}|SK[0-9a-fA-F]{32})\\?["'`]?[ \t]*[:,][ \t]*\\?["'`]?(?<secret>[A-Za-z0-9]{32})(?![A-Za-z0-9])/dg,
    needles: ['AC', 'SK']
  },
  {
    // Mailgun's private API key: "key-" and 32 hex digits.
    id: 'retrace/mailgun-api-key',
    name: 'Mailgun API key',
    regex: /(?<![A-Za-z0-9_-])key-[0-9a-f]{32}(?![A-Za-z0-9_-])/dg,
    needles: ['key-']
  },
  {
    // DigitalOcean tokens: personal access (`dop_v1_`), OAuth (`doo_v1_`) and refresh
    // (`dor_v1_`), each with 64 hex digits.
    id: 'retrace/digitalocean-token',
    name: 'DigitalOcean token',
    regex: /(?<![A-Za-z0-9_])do[opr]_v1_[0-9a-f]{64}(?![A-Za-z0-9_])/dg,
    needles: ['_v1_']
  },
  {
    // Google OAuth 2.0 access tokens: "ya29." and base64url, wherever they appear (a curl
    // header, a token response's JSON, gcloud's output).
    id: 'retrace/google-oauth-token',
    name: 'Google OAuth access token',
    regex: /(?<![A-Za-z0-9_.-])ya29\.[0-9A-Za-z_-]{20,}(?![A-Za-z0-9_-])/dg,
    needles: ['ya29.']
  },
  {
    // An opaque token after `Bearer` (an Authorization header, a curl -H): RFC 6750's token
    // characters. Words and templates are not tokens: `Bearer ${TOKEN}`, `Bearer <token>`,
    // "Bearer authentication" fail the credential check.
    id: 'retrace/bearer-token',
    name: 'Bearer token',
    regex: /(?<![A-Za-z0-9])(?:[Bb]earer|BEARER)[ \t]+(?<secret>[A-Za-z0-9\-._~+/]{8,}=*)(?![A-Za-z0-9\-._~+/=])/dg,
    validate: (secret) => !isKeyPlaceholder(secret) && looksLikeCredential(secret),
    needles: ['earer', 'EARER']
  },
  {
    // `*_API_KEY=`, `*_SECRET=`, `SECRET_KEY=`, `*_TOKEN=`, `client_secret: …`,
    // `"x_api_key": "…"`, also as a tool input's JSON text shows them (`\"apiKey\": \"…\"`).
    // The provider's own rule names a key it knows (`OPENAI_API_KEY=sk-…`); this one catches
    // the keys no rule knows. Like the password rule, it starts at the keyword itself and looks
    // back for the rest of the name in the validator.
    id: 'retrace/secret-assignment',
    name: 'API key or secret',
    regex:
      // eslint-disable-next-line no-control-regex
      /(?:api[_-]?key|secret(?:[_-]?key)?|token)\\?["'`]?[ \t]*(?<separator>:=|=>|=(?!=)|:)[ \t]*(?:(?<open>\\?["'`])(?<secret>[^\x00-\x08\x0a-\x1f"'`\\]{1,300})\k<open>|(?<secretBare>[^\s\x00-\x1f"'`\\;,&()[\]{}<>|]{1,300})(?=[\s\x00-\x1f"'`\\;,&)\]}<>|]|$))/dgi,
    validate: (secret, match) => {
      if (!startsNamePart(match.input, match.index) || isKeyPlaceholder(secret)) return false
      if (/^\d{1,19}$/.test(secret)) return false
      if (match.groups?.secretBare !== undefined && isCodeReference(secret)) return false
      // `API_KEY=x`, `--token=x`: an environment line or a flag carries the value itself.
      // Elsewhere (JSON, YAML, code, prose) it has to look like a credential, not a word.
      return (isAssignmentOfLiteral(match) && secret.length >= 4) || looksLikeCredential(secret)
    }
  }
]

function jwtHeaderHasAlg(header: string): boolean {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))
    return typeof decoded === 'object' && decoded !== null && typeof (decoded as Record<string, unknown>).alg === 'string'
  } catch {
    return false
  }
}

/** Every match of every Retrace rule in one text, offsets into that text. */
export function findRetraceMatches(text: string, rules: readonly RetraceRule[] = RETRACE_RULES): RawMatch[] {
  const found: RawMatch[] = []
  for (const rule of rules) {
    if (rule.needles && !rule.needles.some((needle) => text.includes(needle))) continue
    for (const match of text.matchAll(rule.regex)) {
      const [start, end] = secretIndices(match)
      const secret = text.slice(start, end)
      if (rule.validate && !rule.validate(secret, match)) continue
      found.push({ ruleId: rule.id, ruleName: rule.name, start, end })
    }
  }
  return found
}

function secretIndices(match: RegExpExecArray): [number, number] {
  const groups = match.indices?.groups ?? {}
  for (const [name, range] of Object.entries(groups)) if (name.startsWith('secret') && range) return range
  const whole = match.indices?.[0]
  if (!whole) throw new Error('Retrace rules need the `d` flag (match indices)')
  return whole
}
