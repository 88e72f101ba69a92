import { randomBytes } from 'node:crypto';
import t from 'tap';
import { findSecrets, SECRET_KINDS } from '../../../plugins/guard-secrets/rules.js';
import { scanValue } from '../../../plugins/guard-secrets/scan.js';
import { githubToken } from './helpers.js';

// Issue 54, item 4: guard-secrets reads only texts that can hold a secret, and runs a rule
// only on a text holding the word its patterns need (rules.ts, RULE_NEEDS). Whatever a rule
// finds, alone in a line of prose, both let through to the rule, which names its kind.

const letters = (length: number) => Array.from(randomBytes(length), (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[byte % 62]).join('');
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A 1Password service account token: `ops_` and a JSON object in base64 whose length ends it in `fQ==`. */
function onePasswordToken(): string {
  let json = JSON.stringify({ email: `${letters(12)}@1passwordserviceaccounts.lcl`, secretKey: letters(40), srpX: letters(24) });
  while (json.length % 3 !== 1) json = json.replace('"srpX":"', '"srpX":"a');
  return `ops_${Buffer.from(json).toString('base64')}`;
}

/** One sample of each kind (a sample's kind before the colon), in the spellings the rules' patterns allow. */
const samples: Record<string, string> = {
  github: githubToken(),
  'github: fine-grained': `github_pat_${letters(82)}`,
  slack: `xoxb-${randomBytes(6).readUIntBE(0, 6)}-${randomBytes(6).readUIntBE(0, 6)}-${letters(24)}`,
  'slack: incoming webhook': `https://HOOKS.slack.com/services/T${letters(8)}/B${letters(8)}/${letters(24)}`,
  npm: `npm_${letters(36)}`,
  aws: `aws_secret_access_key = "${letters(40)}"`,
  'aws: upper case': `AWS_SECRET_ACCESS_KEY="${letters(40)}"`,
  'database-connection-string': `postgres://admin:${letters(8)}@db.internal:5432/app`,
  'database-connection-string: mongodb': `MONGODB+SRV://app:${letters(12)}@cluster0.example.net/shop`,
  'database-connection-string: mysql': `jdbc:mysql://root:${letters(12)}@10.0.0.5:3306/crm`,
  basicauth: `https://deploy:${letters(10)}@example.com`,
  jwt: `${base64url({ alg: 'HS256' })}.${base64url({ sub: letters(8) })}.${letters(32)}`,
  'generic-assignment': `password: ${letters(24)}`,
  shopify: `shpat_${letters(32)}`,
  linear: `lin_api_${letters(40)}`,
  openai: `sk-${letters(20)}T3BlbkFJ${letters(20)}`,
  'openai: project key': `sk-proj-${letters(74)}T3BlbkFJ${letters(74)}`,
  anthropic: `sk-ant-api03-${letters(93)}AA`,
  sendgrid: `SG.${letters(22)}.${letters(43)}`,
  '1password': onePasswordToken(),
  privatekey: `-----BEGIN RSA PRIVATE KEY-----\nMII${randomBytes(120).toString('base64')}\n-----END RSA PRIVATE KEY-----`,
};

t.test('a sample of every kind the rules report, except gcp (read from .json and .p12 files only, never from a text)', async (t) => {
  const sampled = new Set(Object.keys(samples).map((name) => name.split(':')[0]));
  t.same(
    SECRET_KINDS.filter((kind) => kind !== 'gcp' && !sampled.has(kind)),
    [],
    'every kind has a sample here (a rule a later preset adds needs one, and a word in RULE_NEEDS if it is to be skipped)',
  );
});

t.test('every kind of secret a rule finds, in a line of prose, is read and found', async (t) => {
  for (const [name, secret] of Object.entries(samples)) {
    const kind = name.split(':')[0] as string;
    const line = `the value is ${secret} as given`;
    t.same(
      (await findSecrets(line)).map((finding) => finding.kind),
      [kind],
      `${name}: the rules find it, as ${kind}`,
    );
    const scanned = await scanValue({ line });
    t.ok(scanned, `${name}: read and found by the scan`);
    t.notMatch(scanned?.redacted.line ?? line, secret.slice(-6), `${name}: redacted`);
  }
  t.equal(await scanValue({ line: 'a sentence of plain prose, with numbers 1 2 3 and short words' }), undefined, 'prose holds none');
});

// The text scanned is a child's: secretlint's comment directives, which let a file's author
// switch rules off, must not let a child switch guard-secrets off (54.4's linter, which
// drives the rules itself, leaves secretlint's filter-comments rule out; this guards it).
t.test("a child's secretlint-disable comments switch nothing off", async (t) => {
  for (const directive of ['// secretlint-disable', '# secretlint-disable-next-line', '<!-- secretlint-disable -->']) {
    const token = githubToken();
    const scanned = await scanValue({ text: `${directive}\n${token} // secretlint-disable-line` });
    t.notMatch(JSON.stringify(scanned?.redacted ?? 'not found'), token, `"${directive}": the token is still redacted`);
  }
});

// A scan answers at once while its rules do; one whose rule waits runs beside others, each with rules of its own.
t.test('scans at once each get their own findings', async (t) => {
  const tokens = Array.from({ length: 20 }, () => githubToken());
  const scans = await Promise.all(tokens.map(async (token, index) => scanValue({ text: `${'padding '.repeat(index)}${token}` })));
  t.same(
    scans.map((scan) => scan?.redacted.text),
    tokens.map((_, index) => `${'padding '.repeat(index)}[REDACTED:github]`),
    'twenty concurrent scans, each redacting its own token where it is',
  );
});
