// guard-secrets' scans alone, in this process: CPU per call for the two scans a call with a
// 1 KB argument and a 1 KB result makes (the carriage bench's `--message-bytes 1024`
// payload: API records with ids, URLs and hashes, no secret), so that the share of the
// guardrails' added cost that is secretlint's can be told from the rest (issue 54.4).
// Run: npm run build && node dist/bench/guard-secrets-scan-cpu.js [rounds] [calls per round]
import { scanResult, scanValue } from '../plugins/guard-secrets/scan.js';

const rounds = Number(process.argv[2] ?? '5');
const calls = Number(process.argv[3] ?? '1000');
const RECORD = "{'id':'3f9c2e1b-4d5f-46a7-9b21-8c0d1e2f3a4b','url':'https://api.example.com/v1/items/1042','sha':'9e107d9d372bb6826bd81d3542a419d6','name':'Desk lamp','price':42} ";
const text = RECORD.repeat(Math.ceil(1024 / RECORD.length)).slice(0, 1024);
const args = { message: text };
const result = { content: [{ type: 'text' as const, text: `Echo: ${text}` }] };
const oneCall = async () => {
  await scanValue(args);
  await scanResult(result);
};

for (let warm = 0; warm < 300; warm++) await oneCall();
const perCall: number[] = [];
for (let round = 0; round < rounds; round++) {
  const before = process.cpuUsage();
  for (let call = 0; call < calls; call++) await oneCall();
  const used = process.cpuUsage(before);
  perCall.push((used.user + used.system) / calls);
}
perCall.sort((a, b) => a - b);
console.log(`guard-secrets, a 1 KB argument and a 1 KB result scanned: us of CPU per call, ${rounds} rounds of ${calls}, lowest first: ${perCall.map((us) => us.toFixed(1)).join(' ')}`);
