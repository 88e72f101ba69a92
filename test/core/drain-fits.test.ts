import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parseAllDocuments } from 'yaml';
import { CUT_GRACE_MS } from '../../core/kernel.js';
import { settingsFromEnvironment } from '../../core/config/settings.js';

// Issue 43, item 6: the default drain, with the grace the cut calls get to be answered
// and a second for the rest of the shutdown (children, store), fits inside the stop
// timeout container engines give by default (10 s, then SIGKILL), and the shipped
// Kubernetes manifest's grace period covers its preStop pause, its drain and that grace.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ENGINE_STOP_TIMEOUT_MS = 10_000;
const REST_OF_SHUTDOWN_MS = 1_000;

t.test('the default drain fits in a container engine’s default stop timeout', async (t) => {
  const { drainTimeoutMs } = settingsFromEnvironment({});
  t.ok(drainTimeoutMs + CUT_GRACE_MS + REST_OF_SHUTDOWN_MS <= ENGINE_STOP_TIMEOUT_MS, `${drainTimeoutMs} ms + ${CUT_GRACE_MS} ms + ${REST_OF_SHUTDOWN_MS} ms within ${ENGINE_STOP_TIMEOUT_MS} ms`);
});

t.test('the Kubernetes manifest’s grace period covers its pause, drain and cut', async (t) => {
  const text = await readFile(`${root}deploy/kubernetes/deployment.yaml`, 'utf8');
  const deployment = parseAllDocuments(text)[0]?.toJS() as {
    spec: {
      template: {
        spec: {
          terminationGracePeriodSeconds: number;
          containers: { env?: { name: string; value: string }[]; lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: { command: string[] } } } }[];
        };
      };
    };
  };
  const pod = deployment.spec.template.spec;
  const hub = pod.containers[0];
  const drain = Number(hub?.env?.find((variable) => variable.name === 'DRAIN_TIMEOUT_MS')?.value ?? settingsFromEnvironment({}).drainTimeoutMs);
  const preStop = hub?.lifecycle?.preStop;
  const pauseMs = (preStop?.sleep?.seconds ?? Number(/sleep (\d+)/.exec(preStop?.exec?.command.join(' ') ?? '')?.[1] ?? 0)) * 1000;
  t.ok(pod.terminationGracePeriodSeconds * 1000 >= pauseMs + drain + CUT_GRACE_MS + REST_OF_SHUTDOWN_MS, 'terminationGracePeriodSeconds covers them');
});
