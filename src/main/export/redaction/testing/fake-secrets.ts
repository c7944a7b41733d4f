// Fake but format-valid secrets for the redaction tests and benchmark. Each is built from
// pieces at run time (never written whole in this file), so secret scanners run over this
// repository do not flag it, and each call gives a distinct secret from a seeded generator.

/** A planted secret: `secret` is exactly what must be found and hidden, `text` is it in context. */
export interface FakeSecret {
  kind: string
  secret: string
  text: string
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const ALNUM = UPPER + LOWER + DIGITS
const BASE64 = `${ALNUM}+/`
const BASE64URL = `${ALNUM}-_`
const HEX = '0123456789abcdef'

/** Seeded, so a failing test shows the same secrets on every run. */
export function createFakeSecrets(seed = 1) {
  let state = seed >>> 0
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
  const chars = (alphabet: string, length: number): string => Array.from({ length }, () => alphabet.charAt(Math.floor(next() * alphabet.length))).join('')
  const b64url = (value: string): string => Buffer.from(value).toString('base64url')
  const pem = (): string => {
    const body = `MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${chars(BASE64, 600)}`
    const lines = body.match(/.{1,64}/g) ?? []
    return ['-----BEGIN', ' PRIVATE KEY-----\n', lines.join('\n'), '\n-----END', ' PRIVATE KEY-----'].join('')
  }
  return {
    awsAccessKeyId: (): string => ['AK', 'IA', chars(UPPER + '234567', 16)].join(''),
    awsSecretAccessKey: (): string => chars(BASE64, 40),
    githubToken: (): string => ['gh', 'p_', chars(ALNUM, 36)].join(''),
    slackToken: (): string => ['xo', 'xb-', chars(DIGITS, 12), '-', chars(DIGITS, 13), '-', chars(ALNUM, 24)].join(''),
    jwt: (): string =>
      [b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' })), b64url(JSON.stringify({ sub: chars(DIGITS, 10), name: 'Fake User', iat: 1516239022 })), chars(BASE64URL, 43)].join('.'),
    stripeLiveKey: (): string => ['sk', '_live_', chars(ALNUM, 48)].join(''),
    stripeRestrictedKey: (): string => ['rk', '_live_', chars(ALNUM, 48)].join(''),
    stripePublishableKey: (): string => ['pk', '_live_', chars(ALNUM, 48)].join(''),
    password: (): string => `${chars(LOWER, 6)}${chars(DIGITS, 3)}${chars('!#%+', 1)}${chars(UPPER, 2)}`,
    privateKeyPem: pem,
    openAiKey: (): string => ['sk-', 'proj-', chars(BASE64URL.replace(/[-_]/g, ''), 74), 'T3Blbk', 'FJ', chars(BASE64URL.replace(/[-_]/g, ''), 74)].join(''),
    anthropicKey: (): string => ['sk-', 'ant-', 'api03-', chars(BASE64URL, 93), 'AA'].join(''),
    googleApiKey: (): string => ['AI', 'za', chars(BASE64URL, 35)].join(''),
    azureStorageKey: (): string => `${chars(BASE64, 86)}==`,
    discordWebhookToken: (): string => chars(BASE64URL, 68),
    discordWebhookId: (): string => `1${chars(DIGITS, 18)}`,
    redisPassword: (): string => chars(ALNUM, 24),
    twilioAccountSid: (): string => ['A', 'C', chars(HEX, 32)].join(''),
    twilioApiKeySid: (): string => ['S', 'K', chars(HEX, 32)].join(''),
    twilioAuthToken: (): string => chars(HEX, 32),
    mailgunKey: (): string => ['ke', 'y-', chars(HEX, 32)].join(''),
    digitalOceanToken: (kind: 'dop' | 'doo' | 'dor' = 'dop'): string => [kind, '_v1_', chars(HEX, 64)].join(''),
    googleOAuthToken: (): string => ['ya', '29.', chars(BASE64URL, 150)].join(''),
    /** A key of no format any rule knows: what a provider without a rule hands out. */
    opaqueKey: (): string => chars(ALNUM, 40)
  }
}

export type FakeSecretFactory = ReturnType<typeof createFakeSecrets>

/**
 * One of each kind the engine must catch, each inside text shaped like where agents leave it
 * (an env file, a curl command, a JSON tool input). The PEM key appears twice: with real
 * newlines, and inside a JSON string whose newlines are the two characters `\n`.
 */
export function plantedSecrets(fake: FakeSecretFactory = createFakeSecrets()): FakeSecret[] {
  const awsId = fake.awsAccessKeyId()
  const awsSecret = fake.awsSecretAccessKey()
  // One in 32 real keys ends in "/" or "+"; secretlint's own AWS rule misses those.
  const awsSecretEndingInSlash = `${fake.awsSecretAccessKey().slice(0, 39)}/`
  const pemInJson = fake.privateKeyPem()
  const jsonText = JSON.stringify({ type: 'service_account', private_key: pemInJson })
  const jsonEscaped = jsonText.slice(jsonText.indexOf('-----BEGIN'), jsonText.lastIndexOf('-----') + 5)
  const github = fake.githubToken()
  const slack = fake.slackToken()
  const jwt = fake.jwt()
  const stripe = fake.stripeLiveKey()
  const restricted = fake.stripeRestrictedKey()
  const envPassword = fake.password()
  const jsonPassword = fake.password()
  const pem = fake.privateKeyPem()
  const openAi = fake.openAiKey()
  const anthropic = fake.anthropicKey()
  const google = fake.googleApiKey()
  const azure = fake.azureStorageKey()
  const [envKey, jsonSecret, bearer] = [fake.opaqueKey(), fake.opaqueKey(), fake.opaqueKey()]
  const discord = fake.discordWebhookToken()
  const redis = fake.redisPassword()
  const twilioSid = fake.twilioAccountSid()
  const twilio = fake.twilioAuthToken()
  const mailgun = fake.mailgunKey()
  const digitalOcean = fake.digitalOceanToken()
  const googleOAuth = fake.googleOAuthToken()
  return [
    { kind: 'discord webhook', secret: discord, text: `curl -X POST -H 'Content-Type: application/json' https://discord.com/api/webhooks/${fake.discordWebhookId()}/${discord} -d '{"content":"build passed"}'` },
    { kind: 'redis url password', secret: redis, text: `REDIS_URL=redis://default:${redis}@redis-10001.c1.example.com:10001` },
    { kind: 'twilio auth token', secret: twilio, text: `curl -u ${twilioSid}:${twilio} https://api.twilio.com/2010-04-01/Accounts/${twilioSid}/Messages.json` },
    { kind: 'mailgun api key', secret: mailgun, text: `curl -s --user 'api:${mailgun}' https://api.mailgun.net/v3/mg.example.com/messages` },
    { kind: 'digitalocean token', secret: digitalOcean, text: `doctl auth init --access-token ${digitalOcean}` },
    { kind: 'google oauth token', secret: googleOAuth, text: `gcloud auth print-access-token\n${googleOAuth}` },
    { kind: 'aws access key id', secret: awsId, text: `export AWS_ACCESS_KEY_ID=${awsId}` },
    { kind: 'aws secret access key', secret: awsSecret, text: `[default]\naws_secret_access_key = ${awsSecret}\nregion = eu-west-1` },
    { kind: 'aws secret access key ending in /', secret: awsSecretEndingInSlash, text: `export AWS_SECRET_ACCESS_KEY="${awsSecretEndingInSlash}"` },
    { kind: 'github token', secret: github, text: `git remote set-url origin https://github.com/acme/app.git && gh auth login --with-token <<< ${github}` },
    { kind: 'slack token', secret: slack, text: `const slack = new WebClient('${slack}')` },
    { kind: 'jwt', secret: jwt, text: `curl -H "Authorization: Bearer ${jwt}" https://api.example.com/me` },
    { kind: 'stripe live key', secret: stripe, text: `STRIPE_SECRET_KEY=${stripe}` },
    { kind: 'stripe restricted key', secret: restricted, text: `stripe.api_key = "${restricted}"` },
    { kind: 'password (env)', secret: envPassword, text: `DB_HOST=localhost\nDB_PASSWORD=${envPassword}\nDB_PORT=5432` },
    { kind: 'password (json)', secret: jsonPassword, text: JSON.stringify({ command: 'login', args: { user: 'admin', password: jsonPassword } }) },
    { kind: 'private key (pem)', secret: pem, text: `Here is the key file you asked for:\n${pem}\n` },
    { kind: 'private key (json \\n)', secret: jsonEscaped, text: jsonText },
    { kind: 'openai key', secret: openAi, text: `OPENAI_API_KEY=${openAi} python run.py` },
    { kind: 'anthropic key', secret: anthropic, text: `client = Anthropic(api_key="${anthropic}")` },
    { kind: 'google api key', secret: google, text: `curl "https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=${google}"` },
    { kind: 'azure storage account key', secret: azure, text: `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=${azure};EndpointSuffix=core.windows.net"` },
    { kind: 'api key of no known format (env)', secret: envKey, text: `WEATHER_API_KEY=${envKey}` },
    { kind: 'client secret of no known format (json)', secret: jsonSecret, text: JSON.stringify({ client_id: 'acme-web', client_secret: jsonSecret }) },
    { kind: 'opaque bearer token', secret: bearer, text: `curl -H "Authorization: Bearer ${bearer}" https://api.example.com/v1/items` }
  ]
}

/** Inserts `snippet` on lines of its own at the line break nearest `fraction` of the way through `text`. */
export function plantInto(text: string, snippet: string, fraction: number): string {
  const at = text.indexOf('\n', Math.floor(text.length * fraction))
  const cut = at === -1 ? text.length : at
  return `${text.slice(0, cut)}\n${snippet}\n${text.slice(cut)}`
}
