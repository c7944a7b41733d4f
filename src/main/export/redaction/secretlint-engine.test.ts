import { beforeAll, describe, expect, it } from 'vitest'
import { findRetraceMatches } from './retrace-rules'
import { createSecretlintScanner, loadSecretlint, recommendedPresetConfig, retracePresetConfig, type SecretlintScanner } from './secretlint-engine'
import { secretlintRuleName } from './secretlint-names'
import { createFakeSecrets } from './testing/fake-secrets'

// What secretlint's recommended preset finds by itself, on decoded text: the evidence for
// which rules Retrace adds (only what the preset misses) and which preset options it changes.

const fake = createFakeSecrets(11)
let presetAlone: SecretlintScanner
let retraceConfigured: SecretlintScanner

beforeAll(async () => {
  presetAlone = await createSecretlintScanner(recommendedPresetConfig)
  retraceConfigured = await createSecretlintScanner()
})

const secrets = async (scanner: SecretlintScanner, text: string): Promise<string[]> => (await scanner(text)).map((match) => text.slice(match.start, match.end))

describe('the preset misses what Retrace adds a rule for', () => {
  const password = fake.password()
  const jwt = fake.jwt()
  // The preset's pattern ends in `\b`, which a key ending in `/` or `+` never meets before a newline or quote.
  const awsSecretEndingInSlash = `${fake.awsSecretAccessKey().slice(0, 39)}/`
  const google = fake.googleApiKey()
  const azure = fake.azureStorageKey()
  const opaque = fake.opaqueKey()
  const discord = fake.discordWebhookToken()
  const redis = fake.redisPassword()
  const twilioSid = fake.twilioAccountSid()
  const twilioToken = fake.twilioAuthToken()
  const twilioKeySecret = fake.opaqueKey().slice(0, 32)
  const mailgun = fake.mailgunKey()
  const [dop, doo, dor] = [fake.digitalOceanToken('dop'), fake.digitalOceanToken('doo'), fake.digitalOceanToken('dor')]
  const ya29 = fake.googleOAuthToken()
  it.each([
    ['a Discord webhook', `curl -X POST https://discord.com/api/webhooks/${fake.discordWebhookId()}/${discord} -d '{"content":"deployed"}'`, discord, 'retrace/discord-webhook'],
    ['a password in a redis:// URL', `REDIS_URL=redis://default:${redis}@redis-12345.c1.example.com:12345`, redis, 'retrace/redis-url-password'],
    ['a password in a rediss:// URL without a user', `createClient({ url: 'rediss://:${redis}@cache.example.com:6380/0' })`, redis, 'retrace/redis-url-password'],
    ['a Twilio auth token after its account SID (curl -u)', `curl -u ${twilioSid}:${twilioToken} https://api.twilio.com/2010-04-01/Accounts/${twilioSid}/Messages.json`, twilioToken, 'retrace/twilio-credentials'],
    ['a Twilio API key secret after its SK SID', `client = Client("${fake.twilioApiKeySid()}", "${twilioKeySecret}", account_sid)`, twilioKeySecret, 'retrace/twilio-credentials'],
    ['a Mailgun API key', `curl -s --user 'api:${mailgun}' https://api.mailgun.net/v3/mg.example.com/messages`, mailgun, 'retrace/mailgun-api-key'],
    ['a DigitalOcean personal access token', `doctl auth init --access-token ${dop}`, dop, 'retrace/digitalocean-token'],
    ['a DigitalOcean OAuth token', `curl -H "X-Auth: ${doo}" https://api.digitalocean.com/v2/account`, doo, 'retrace/digitalocean-token'],
    ['a DigitalOcean refresh token', `refresh with ${dor} tomorrow`, dor, 'retrace/digitalocean-token'],
    ['a Google OAuth access token', `gcloud auth print-access-token\n${ya29}\n`, ya29, 'retrace/google-oauth-token'],
    ['a JWT', `curl -b "session=${jwt}" https://api.example.com`, jwt, 'retrace/jwt'],
    ['an AWS secret access key ending in "/"', `[default]\naws_secret_access_key = ${awsSecretEndingInSlash}\nregion = us-east-1`, awsSecretEndingInSlash, 'retrace/aws-secret-access-key'],
    ['an AWS secret access key ending in "+", in JSON', JSON.stringify({ SecretAccessKey: `${awsSecretEndingInSlash.slice(0, 39)}+` }), `${awsSecretEndingInSlash.slice(0, 39)}+`, 'retrace/aws-secret-access-key'],
    ['a password in an env line', `DB_PASSWORD=${password}`, password, 'retrace/password-assignment'],
    ['a password in JSON', JSON.stringify({ user: 'admin', password }), password, 'retrace/password-assignment'],
    ['a Google API key', `const maps = loadMaps({ key: '${google}' })`, google, 'retrace/google-api-key'],
    ['an Azure storage account key', `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${azure};EndpointSuffix=core.windows.net`, azure, 'retrace/azure-storage-account-key'],
    ['an API key of no known format in an env line', `WEATHER_API_KEY=${opaque}`, opaque, 'retrace/secret-assignment'],
    ['an opaque bearer token', `curl -H 'Authorization: Bearer ${opaque}' https://api.example.com`, opaque, 'retrace/bearer-token']
  ])('%s', async (_what, text, secret, ruleId) => {
    expect(await secrets(presetAlone, text)).toEqual([])
    expect(await secrets(retraceConfigured, text)).toEqual([])
    const ours = findRetraceMatches(text).map((match) => ({ ruleId: match.ruleId, secret: text.slice(match.start, match.end) }))
    expect(ours).toEqual([{ ruleId, secret }])
  })
})

describe('the preset already finds these, so Retrace adds no rule for them', () => {
  const live = fake.stripeLiveKey()
  const restricted = fake.stripeRestrictedKey()
  const pem = fake.privateKeyPem()
  const jsonPem = JSON.stringify({ private_key: pem })
  const escapedPem = jsonPem.slice(jsonPem.indexOf('-----BEGIN'), jsonPem.lastIndexOf('-----') + 5)

  it.each([
    ['a Stripe live secret key', `STRIPE_KEY=${live}`, live, '@secretlint/secretlint-rule-stripe'],
    ['a Stripe live restricted key', `new Stripe("${restricted}")`, restricted, '@secretlint/secretlint-rule-stripe'],
    ['a PEM private key inside a JSON string (`\\n` escapes)', jsonPem, escapedPem, '@secretlint/secretlint-rule-privatekey']
  ])('%s', async (_what, text, secret, ruleId) => {
    const found = await presetAlone(text)
    expect(found.map((match) => ({ ruleId: match.ruleId, secret: text.slice(match.start, match.end) }))).toEqual([{ ruleId, secret }])
    expect(findRetraceMatches(text)).toEqual([])
  })

  it('leaves a Stripe publishable key alone: it is public by design', async () => {
    const text = `Stripe(${JSON.stringify(fake.stripePublishableKey())})`
    expect(await presetAlone(text)).toEqual([])
    expect(await retraceConfigured(text)).toEqual([])
    expect(findRetraceMatches(text)).toEqual([])
  })
})

describe('preset options Retrace changes', () => {
  it('runs every rule of the preset (including ones a later version adds) except comment filtering', async () => {
    const { preset } = await loadSecretlint()
    const ours = retracePresetConfig(preset).rules.map((rule) => rule.id)
    expect(ours).toEqual(preset.rules.map((rule) => rule.meta.id).filter((id) => id !== '@secretlint/secretlint-rule-filter-comments'))
    expect(ours.length).toBeGreaterThan(20)
  })

  it('finds AWS access key ids (the preset checks them only with enableIDScanRule), not account ids', async () => {
    const keyId = fake.awsAccessKeyId()
    const sessionKeyId = `AS${fake.awsAccessKeyId().slice(2)}`
    const text = `aws_access_key_id = ${keyId}\nsession ${sessionKeyId}\naws_account_id = 1234-5678-9012`
    expect(await secrets(presetAlone, text)).toEqual([])
    expect(await secrets(retraceConfigured, text)).toEqual([keyId, sessionKeyId])
  })

  it('ignores `secretlint-disable` comments: in a transcript they are quoted text', async () => {
    const token = fake.githubToken()
    const text = `// secretlint-disable\nconst token = "${token}"`
    expect(await secrets(presetAlone, text)).toEqual([])
    expect(await secrets(retraceConfigured, text)).toEqual([token])
  })
})

describe('where a secretlint finding is', () => {
  it('is the AWS secret access key itself, where the rule reports the key name with the secret length', async () => {
    const secret = fake.awsSecretAccessKey()
    const text = `AWS_SECRET_ACCESS_KEY=${secret}`
    const [reported] = await presetAlone(text)
    expect(reported && text.slice(reported.start, reported.end)).toBe(secret)
  })
})

describe('memory', () => {
  it('leaves no performance marks behind: the secretlint profiler is off', async () => {
    performance.clearMarks()
    performance.clearMeasures()
    for (let i = 0; i < 20; i++) await retraceConfigured(`text ${i} ${fake.githubToken()}`)
    expect(performance.getEntriesByType('mark').filter((mark) => mark.name.startsWith('@core>'))).toEqual([])
  })
})

describe('secretlintRuleName', () => {
  it('takes the name from the message, never the secret after it', () => {
    const token = fake.githubToken()
    expect(secretlintRuleName({ ruleId: '@secretlint/secretlint-rule-github', message: `found GitHub Token(GitHub personal access tokens): ${token}` })).toBe('GitHub Token')
    expect(secretlintRuleName({ ruleId: '@secretlint/secretlint-rule-slack', message: `found slack token: ${fake.slackToken()}` })).toBe('Slack token')
    expect(secretlintRuleName({ ruleId: '@secretlint/secretlint-rule-new', message: `new key ${token}` })).toBe('new secret')
  })
})
