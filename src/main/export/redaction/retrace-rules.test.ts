import { describe, expect, it } from 'vitest'
import { findRetraceMatches } from './retrace-rules'
import { createFakeSecrets } from './testing/fake-secrets'

const fake = createFakeSecrets(7)
const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

/** What a rule flags in a text: the secret strings, so a test shows exactly what would be hidden. */
function flagged(text: string, ruleId: string): string[] {
  return findRetraceMatches(text)
    .filter((match) => match.ruleId === ruleId)
    .map((match) => text.slice(match.start, match.end))
}

describe('retrace/aws-secret-access-key', () => {
  const key = fake.awsSecretAccessKey()
  const endsInSlash = `${key.slice(0, 39)}/`

  it.each([
    ['a credentials file, the key ending in "/"', `[default]\naws_secret_access_key = ${endsInSlash}\n`, endsInSlash],
    ['an env line', `AWS_SECRET_ACCESS_KEY=${key}`, key],
    ['a JSON field of a tool input', JSON.stringify({ content: JSON.stringify({ SecretAccessKey: endsInSlash }) }), endsInSlash],
    ['the end of the text', `secret_access_key: '${endsInSlash}'`, endsInSlash]
  ])('finds the key in %s', (_where, text, secret) => {
    expect(flagged(text, 'retrace/aws-secret-access-key')).toEqual([secret])
  })

  it.each([
    ['a longer base64 run', `aws_secret_access_key = ${key}${key}`],
    ['a placeholder', 'aws_secret_access_key = <your secret access key>'],
    ['an unrelated secret key', `stripe_secret_key = ${key}`]
  ])('ignores %s', (_what, text) => {
    expect(flagged(text, 'retrace/aws-secret-access-key')).toEqual([])
  })
})

describe('retrace/jwt', () => {
  const jwt = fake.jwt()

  it.each([
    ['a bearer header', `curl -H "Authorization: Bearer ${jwt}" https://api.example.com`],
    ['a cookie', `Set-Cookie: session=${jwt}; Path=/; HttpOnly`],
    ['a JSON field', JSON.stringify({ token: jwt, expires: 3600 })],
    ['the start of a text', jwt]
  ])('finds a JWT in %s', (_where, text) => {
    expect(flagged(text, 'retrace/jwt')).toEqual([jwt])
  })

  it('finds an unsecured JWT (alg none, empty signature) and a five-part JWE', () => {
    const unsecured = `${b64url({ alg: 'none' })}.${b64url({ sub: 'admin' })}`
    expect(flagged(`token=${unsecured}. Then`, 'retrace/jwt')).toEqual([unsecured])
    const jwe = [b64url({ alg: 'RSA-OAEP', enc: 'A256GCM' }), 'OKOawDo13gRp2ojaHV7LFpZcgV7T6DVZKTyKOMTYUmKoTCVJRgckCL9kiMT03JGe', '48V1_ALb6US04U3b', '5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4vpzs9tX_EFShS8iB7j6jiSdiwkIr3ajwQzaBtQD_A', 'XFBoMYUZodetZdvTiFvSkQ'].join('.')
    expect(flagged(`jwe: ${jwe}`, 'retrace/jwt')).toEqual([jwe])
  })

  it.each([
    ['dotted base64url whose header has no "alg"', `${b64url({ foo: 'bar', baz: 1 })}.${b64url({ sub: 'x' })}.c2lnbmF0dXJlc2ln`],
    ['a header that is not JSON', 'eyJub3QganNvbg.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
    ['a host name', 'open https://eyewearshop.example.com/cart and eyewitness.news.example'],
    ['a version string and a file name', 'bumped to 1.22.3, see ew-config.backup.json'],
    ['a JWT-shaped run inside a longer base64 string', `AAAA${fake.jwt()}`]
  ])('ignores %s', (_what, text) => {
    expect(flagged(text, 'retrace/jwt')).toEqual([])
  })
})

describe('retrace/password-assignment', () => {
  it.each([
    ['an env line', 'DB_HOST=db\nDB_PASSWORD=s3cr3t!x\n', 's3cr3t!x'],
    ['an env prefix on a command', 'PGPASSWORD=hunter2 psql -h db -U app', 'hunter2'],
    ['a flag', 'mysql -u root --password=Tr0ub4dor app', 'Tr0ub4dor'],
    ['a plain word after a flag', 'mysqldump --password=opensesame app', 'opensesame'],
    ['a query string', 'GET /login?user=bob&password=opensesame&next=/', 'opensesame'],
    ['a properties file', 'spring.datasource.password=letmein', 'letmein'],
    ['a JSON field', JSON.stringify({ username: 'admin', password: 'correct horse battery staple' }), 'correct horse battery staple'],
    ['a JSON field inside a JSON string (a tool input)', JSON.stringify({ content: JSON.stringify({ password: 'abc123def' }) }), 'abc123def'],
    ['YAML', 'database:\n  user: app\n  password: hunter22\n', 'hunter22'],
    ['a quoted assignment', "passwd = 'letmein99'", 'letmein99'],
    ['a quoted literal in code', 'const password = "changeme"', 'changeme'],
    ['a PHP/Ruby hash', "'db_password' => 'qwerty!7'", 'qwerty!7'],
    ['a passphrase', 'GPG_PASSPHRASE=blue-moon-42', 'blue-moon-42']
  ])('finds the value in %s', (_where, text, secret) => {
    expect(flagged(text, 'retrace/password-assignment')).toEqual([secret])
  })

  it.each([
    ['placeholders', 'password: "***"\npassword=<password>\nDB_PASSWORD=${DB_PASSWORD}\npassword: "{{ vault_pass }}"\nPASSWORD=\npassword: ""\nPASSWORD=$PGPASS\npassword=%DB_PASS%\n"password": "your-password-here"'],
    ['code that reads a password', 'const password = await getPassword()\npassword = request.form["password"]\npassword = os.environ["DB_PASSWORD"]\nuser.password = hash(password)\npassword: process.env.DB_PASSWORD,'],
    ['types and schemas', 'password: string\npassword?: string\npassword: z.string().min(8)\npassword: str = Field(...)\n"password": {"type": "string"}'],
    ['keyword arguments', 'def login(username, password=None):\n    connect(user=username, password=password)\n    f(password=new_password)'],
    ['comparisons', 'if (password == "") return\nif password === confirm {'],
    ['prose', 'Enter your password: the one from the email. Reset password: click the link. Password: Required.'],
    ['other keys', 'password_hash = "x9f8e7"\npasswords: [a1, b2]\npasswordless: true\n--password-stdin\n<input type="password" name="password">']
  ])('ignores %s', (_what, text) => {
    expect(flagged(text, 'retrace/password-assignment')).toEqual([])
  })
})

describe('retrace/google-api-key', () => {
  const key = fake.googleApiKey()

  it.each([
    ['a query string', `https://maps.googleapis.com/maps/api/js?key=${key}&callback=init`],
    ['a JSON config', JSON.stringify({ apiKey: key, authDomain: 'acme.firebaseapp.com' })],
    ['an env line', `GOOGLE_MAPS_KEY=${key}`]
  ])('finds the key in %s', (_where, text) => {
    expect(flagged(text, 'retrace/google-api-key')).toEqual([key])
  })

  it.each([
    ['a key one character short', `key=${key.slice(0, -1)}`],
    ['the prefix inside a longer run', `data=${key}abc`],
    ['another word starting AIza', 'the AIzaWordThatIsNotAKey here']
  ])('ignores %s', (_what, text) => {
    expect(flagged(text, 'retrace/google-api-key')).toEqual([])
  })
})

describe('retrace/azure-storage-account-key', () => {
  const key = fake.azureStorageKey()

  it.each([
    ['a connection string', `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${key};EndpointSuffix=core.windows.net`],
    ['an env line, quoted', `AZURE_STORAGE_CONNECTION_STRING="AccountName=acme;AccountKey=${key}"`],
    ['the end of a text', `accountkey=${key}`]
  ])('finds the key in %s', (_where, text) => {
    expect(flagged(text, 'retrace/azure-storage-account-key')).toEqual([key])
  })

  it.each([
    ['a placeholder', 'AccountName=acme;AccountKey=<your-account-key>;EndpointSuffix=core.windows.net'],
    ['a key of the wrong length', `AccountKey=${key.slice(2)}`],
    ['a longer base64 run', `AccountKey=${key.slice(0, -2)}${key}`]
  ])('ignores %s', (_what, text) => {
    expect(flagged(text, 'retrace/azure-storage-account-key')).toEqual([])
  })
})

describe('retrace/bearer-token', () => {
  const token = fake.opaqueKey()

  it.each([
    ['a curl header', `curl -H "Authorization: Bearer ${token}" https://api.example.com/v1/items`, token],
    ['a raw HTTP request', `GET /v1/me HTTP/1.1\r\nHost: api.example.com\r\nauthorization: bearer ${token}\r\n`, token],
    ['a dotted OAuth token', 'Authorization: Bearer ya29.a0AfH6SMBx3kQ9vZ-2pLq_7WcR', 'ya29.a0AfH6SMBx3kQ9vZ-2pLq_7WcR'],
    ['a JSON header map', JSON.stringify({ headers: { Authorization: `Bearer ${token}` } }), token]
  ])('finds the token in %s', (_where, text, secret) => {
    expect(flagged(text, 'retrace/bearer-token')).toEqual([secret])
  })

  it.each([
    ['templates and variables', 'Authorization: Bearer ${TOKEN}\n-H "Authorization: Bearer $API_TOKEN"\nBearer <token>\nheaders = {"Authorization": f"Bearer {token}"}\n`Bearer ${token}`'],
    ['masks and examples', 'Authorization: Bearer xxxxxxxxxxxxxxxx\nAuthorization: Bearer sk-...\nAuthorization: Bearer YOUR_ACCESS_TOKEN'],
    ['prose', 'Use Bearer authentication with the token from the settings page; Bearer tokens expire.']
  ])('ignores %s', (_what, text) => {
    expect(flagged(text, 'retrace/bearer-token')).toEqual([])
  })
})

describe('retrace/secret-assignment', () => {
  const key = fake.opaqueKey()

  it.each([
    ['an env line', `WEATHER_API_KEY=${key}`, key],
    ['an exported *_SECRET', `export GITHUB_CLIENT_SECRET='${key}'`, key],
    ['SECRET_KEY, a plain word (an env line carries the value itself)', 'SECRET_KEY=supersecretvalue', 'supersecretvalue'],
    ['a *_TOKEN in a docker run', `docker run -e BOT_TOKEN=${key} acme/bot`, key],
    ['a JSON field', JSON.stringify({ x_api_key: key, region: 'eu' }), key],
    ['a camelCase JSON field inside a tool input', JSON.stringify({ content: JSON.stringify({ clientSecret: key }) }), key],
    ['YAML', `service:\n  api_key: ${key}\n`, key],
    ['a quoted assignment in code', `API_KEY = "${key}"`, key],
    ['a flag', `deploy --api-key=${key} --env prod`, key],
    ['an HTTP header', `curl -H "X-Api-Key: ${key}" https://api.example.com`, key]
  ])('finds the value in %s', (_where, text, secret) => {
    expect(flagged(text, 'retrace/secret-assignment')).toEqual([secret])
  })

  it.each([
    ['placeholders', 'OPENAI_API_KEY=your-key-here\nAPI_KEY=<your api key>\nAPI_KEY=${API_KEY}\nAPI_KEY=$API_KEY\nSECRET_KEY=xxx\nAPI_KEY=\n"api_key": ""\nCLIENT_SECRET=xxxxxxxxxxxx\nSTRIPE_SECRET=sk_test_...\nAPI_KEY=YOUR_API_KEY\napi_key: "<API_KEY>"\nSECRET_KEY={{ secret_key }}\nAPI_KEY=%API_KEY%\nTOKEN=$(gh auth token)\napi_key: ${{ secrets.API_KEY }}'],
    ['code that reads a key', 'api_key = os.environ["API_KEY"]\nconst apiKey = process.env.API_KEY\napiKey: config.apiKey,\ntoken = get_token()\nsecret: this.secret\n"token": token'],
    ['types and schemas', 'api_key: str\napiKey?: string\ntoken: Optional[str] = None\nsecret_key: SecretStr\n"api_key": {"type": "string"}'],
    ['words and counts', 'max_token: 4096\n{"token": "hello", "logprob": -0.25}\nsecret: true\nToken: none\ncsrf_token: abc'],
    ['other keys', 'secret_key_base_file: /run/secrets/base\ntokens: 12\ntokenizer: gpt2\nsecretRef: db-credentials\nnosecret=abc123def456\nmytoken=abc123def456'],
    ['paths and URLs', 'api_key_file = ./keys/api_key2.txt\ntoken: /var/run/secrets/token2\nsecret: https://vault.example.com/v1/kv2']
  ])('ignores %s', (_what, text) => {
    expect(flagged(text, 'retrace/secret-assignment')).toEqual([])
  })
})

describe('values in a binary file read as text', () => {
  it('end at a control character: a NUL closes an unquoted value', () => {
    const key = fake.opaqueKey()
    const text = `\u0000\u00fftoken=${key}\u0000password=hunter2\u0000\u0001more`
    expect(flagged(text, 'retrace/secret-assignment')).toEqual([key])
    expect(flagged(text, 'retrace/password-assignment')).toEqual(['hunter2'])
  })
})

describe('the rules for provider tokens the preset misses (Discord, Redis, Twilio, Mailgun, DigitalOcean, Google OAuth)', () => {
  const discord = fake.discordWebhookToken()
  const webhookId = fake.discordWebhookId()
  const redis = fake.redisPassword()
  const sid = fake.twilioAccountSid()
  const token = fake.twilioAuthToken()
  const mailgun = fake.mailgunKey()
  const dop = fake.digitalOceanToken('dop')
  const ya29 = fake.googleOAuthToken()

  it.each([
    ['retrace/discord-webhook', `webhook: "https://discordapp.com/api/webhooks/${webhookId}/${discord}"`, discord],
    ['retrace/discord-webhook', `https://ptb.discord.com/api/v10/webhooks/${webhookId}/${discord}?wait=true`, discord],
    ['retrace/redis-url-password', JSON.stringify({ cache: `redis://app:${redis}@10.0.0.5:6379/2` }), redis],
    ['retrace/redis-url-password', `celery -b REDIS://worker:${redis}@broker:6379/0 worker`, redis],
    ['retrace/twilio-credentials', `const client = twilio('${sid}', '${token}')`, token],
    ['retrace/twilio-credentials', `TWILIO_CREDENTIALS=${sid}:${token}`, token],
    ['retrace/mailgun-api-key', `mailgun.client({ username: 'api', key: '${mailgun}' })`, mailgun],
    ['retrace/digitalocean-token', JSON.stringify({ access_token: dop, token_type: 'bearer' }), dop],
    ['retrace/google-oauth-token', JSON.stringify({ access_token: ya29, expires_in: 3599, token_type: 'Bearer' }), ya29]
  ])('%s finds its secret in %s', (ruleId, text, secret) => {
    expect(flagged(text, ruleId)).toEqual([secret])
  })

  it.each([
    ['retrace/discord-webhook', `https://discord.com/api/webhooks/${webhookId}/{token}`],
    ['retrace/discord-webhook', 'see https://discord.com/developers/docs/resources/webhook'],
    ['retrace/redis-url-password', 'REDIS_URL=redis://localhost:6379/0'],
    ['retrace/redis-url-password', 'redis://user:<password>@host:6379'],
    ['retrace/redis-url-password', 'redis://default:${REDIS_PASSWORD}@redis:6379'],
    ['retrace/twilio-credentials', `the account ${sid} sent 3 messages`],
    ['retrace/twilio-credentials', `https://api.twilio.com/2010-04-01/Accounts/${sid}/Messages.json`],
    ['retrace/mailgun-api-key', `monkey-${fake.twilioAuthToken()}`],
    ['retrace/mailgun-api-key', 'key-value store, key-1234'],
    ['retrace/digitalocean-token', 'dop_v1_ is the prefix of a DigitalOcean token'],
    ['retrace/google-oauth-token', 'tokens start with ya29. and are short-lived']
  ])('%s ignores %s', (ruleId, text) => {
    expect(flagged(text, ruleId)).toEqual([])
  })
})
