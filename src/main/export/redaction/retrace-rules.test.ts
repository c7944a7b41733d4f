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
