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
