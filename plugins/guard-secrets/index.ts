import { definePlugin } from '../../core/plugin/index.js';
import type { ToolCallInterceptor } from '../../core/plugin/interceptor.js';
import manifest from './manifest.js';
import { GuardSecretsKey, GuardSecretsOptions, policies } from './options.js';
import { SECRET_KINDS } from './rules.js';
import { scanResult, scanValue, then } from './scan.js';

/**
 * Stands nearest the child among interceptors: it sees a result before anything cuts it
 * (a secret cut in half would no longer be recognised) and arguments after everything
 * else changed them.
 */
const ORDER = 900;
/**
 * The budget of a scan that waits (a rule reading a file: none that reads a text does); past it
 * the call fails closed, as any interceptor's. A scan that answers at once is not timed (a
 * timer could not stop it midway); its cost grows with the text (README, Cost).
 */
const TIME_BUDGET_MS = 5000;

/**
 * guard-secrets: an interceptor (`mcp-switchyard/plugin/interceptor`) that finds secrets in
 * the arguments a caller sends and the result a server returns, on every road, and
 * redacts them or refuses the call. Never logs, counts or shows what it found: only its
 * kind, through the kernel's interception events (counted by observability).
 */
export default definePlugin({
  ...manifest,
  options: GuardSecretsOptions,
  serverKeys: { guardSecrets: GuardSecretsKey },
  // Read from the entry at each use, so a reload applies a change at once.
  liveServerKeys: ['guardSecrets'],
  register(_app, options, hub) {
    const policyFor = policies(options);
    const interceptor: ToolCallInterceptor = {
      order: ORDER,
      timeBudgetMs: TIME_BUDGET_MS,
      findingKinds: SECRET_KINDS,
      // Not async: a scan answers at once (see rules.ts), and a verdict given at once costs the call no promise and no timer.
      before(call) {
        const policy = policyFor(call.server.entry.guardSecrets);
        if (!policy?.directions.has('arguments')) return undefined;
        return then(scanValue(call.arguments), (scanned) => {
          if (!scanned) return undefined;
          if (policy.mode === 'block') {
            return { refuse: `the arguments carry a secret (${named(scanned.kinds)}); remove it and call again`, arguments: scanned.redacted, findings: scanned.kinds };
          }
          return { arguments: scanned.redacted, findings: scanned.kinds };
        });
      },
      after(call, result) {
        const policy = policyFor(call.server.entry.guardSecrets);
        if (!policy?.directions.has('result')) return undefined;
        return then(scanResult(result), (scanned) => {
          if (!scanned) return undefined;
          if (policy.mode === 'block') return { refuse: `the result carries a secret (${named(scanned.kinds)}), so it was withheld`, findings: scanned.kinds };
          return { result: scanned.redacted, findings: scanned.kinds };
        });
      },
      afterError(call, error) {
        const policy = policyFor(call.server.entry.guardSecrets);
        if (!policy?.directions.has('result')) return undefined;
        return then(scanValue({ message: error.message, data: error.data }), (scanned) => {
          if (!scanned) return undefined;
          if (policy.mode === 'block') return { message: `The server's error was withheld by plugin "guard-secrets": it carries a secret (${named(scanned.kinds)})`, findings: scanned.kinds };
          return { message: scanned.redacted.message, data: scanned.redacted.data, findings: scanned.kinds };
        });
      },
      duringCall(call, notification) {
        const policy = policyFor(call.server.entry.guardSecrets);
        if (!policy?.directions.has('result')) return undefined;
        return then(scanValue(notification.params), (scanned) => {
          if (!scanned) return undefined;
          return policy.mode === 'block' ? { drop: true, findings: scanned.kinds } : { params: scanned.redacted, findings: scanned.kinds };
        });
      },
      // run_code's answer carries what its program made of the results (each scanned already) and what it printed.
      afterHubTool(_call, result) {
        const policy = policyFor(undefined);
        if (!policy?.directions.has('result')) return undefined;
        return then(scanResult(result), (scanned) => {
          if (!scanned) return undefined;
          if (policy.mode === 'block') return { refuse: `the answer carries a secret (${named(scanned.kinds)}), so it was withheld`, findings: scanned.kinds };
          return { result: scanned.redacted, findings: scanned.kinds };
        });
      },
    };
    hub.interceptors.add('guard-secrets', interceptor);
  },
});

function named(kinds: readonly string[]): string {
  return [...new Set(kinds)].join(', ');
}
