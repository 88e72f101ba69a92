import { randomBytes } from 'node:crypto';
import t from 'tap';
import { findSecrets } from '../../../plugins/guard-secrets/rules.js';
import { scanValue } from '../../../plugins/guard-secrets/scan.js';
import { githubToken } from './helpers.js';

// Issue 54, item 4: guard-secrets reads only texts that can hold a secret. Whatever a rule
// finds, alone in a line of prose, the prefilter lets through to the rules.

const letters = (length: number) => Array.from(randomBytes(length), (byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[byte % 62]).join('');
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

const samples: Record<string, string> = {
  github: githubToken(),
  slack: `xoxb-${randomBytes(6).readUIntBE(0, 6)}-${randomBytes(6).readUIntBE(0, 6)}-${letters(24)}`,
  npm: `npm_${letters(36)}`,
  'aws secret key': `aws_secret_access_key = "${letters(40)}"`,
  'database-connection-string': `postgres://admin:${letters(8)}@db.internal:5432/app`,
  basicauth: `https://deploy:${letters(10)}@example.com`,
  jwt: `${base64url({ alg: 'HS256' })}.${base64url({ sub: letters(8) })}.${letters(32)}`,
  'generic-assignment': `password: ${letters(24)}`,
  shopify: `shpat_${letters(32)}`,
  linear: `lin_api_${letters(40)}`,
};

t.test('every kind of secret a rule finds, in a line of prose, is read and found', async (t) => {
  for (const [kind, secret] of Object.entries(samples)) {
    const line = `the value is ${secret} as given`;
    t.ok((await findSecrets(line)).length > 0, `${kind}: the rules find it`);
    const scanned = await scanValue({ line });
    t.ok(scanned, `${kind}: read and found by the scan`);
    t.notMatch(scanned?.redacted.line ?? line, secret.slice(-6), `${kind}: redacted`);
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

t.test('scans at once each get their own findings', async (t) => {
  const tokens = Array.from({ length: 20 }, () => githubToken());
  const scans = await Promise.all(tokens.map((token, index) => scanValue({ text: `${'padding '.repeat(index)}${token}` })));
  t.same(
    scans.map((scan) => scan?.redacted.text),
    tokens.map((_, index) => `${'padding '.repeat(index)}[REDACTED:github]`),
    'twenty concurrent scans, each redacting its own token where it is',
  );
});
