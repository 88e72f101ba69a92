import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import t from 'tap';
import { checkConfig } from '../../core/config/load.js';
import { CUT_GRACE_MS } from '../../core/kernel.js';
import { settingsFromEnvironment } from '../../core/config/settings.js';
import { KUSTOMIZATION, REPOSITORY, loadManifests, only, parseManifests, type Container, type Deployment, type Manifest } from './manifests.js';

// deploy/kubernetes holds what docs/deployment/kubernetes.md promises an operator: these checks read the
// manifests as kustomize renders them (test/deploy/manifests.ts) and hold them to it.

/** After the drain: the cut calls' answers (CUT_GRACE_MS), then stopping servers and the store (issue 43, item 6). */
const SHUTDOWN_AFTER_DRAIN_MS = CUT_GRACE_MS + 1_000;

const manifests = loadManifests();
const deployment = only(manifests, 'Deployment') as Deployment;
const pod = deployment.spec.template.spec;
const hub = pod.containers.find((container) => container.name === 'hub') as Container;
const env = Object.fromEntries((hub.env ?? []).map((variable) => [variable.name, variable]));
/** The image's own settings, from the Containerfile's ENV. */
const imageEnv = Object.fromEntries(
  [...readFileSync(join(REPOSITORY, 'Containerfile'), 'utf8').matchAll(/^\s*(?:ENV\s+)?([A-Z_]+)=(\S+?)\s*\\?$/gm)].map((match): [string, string] => [match[1]!, match[2]!]),
);

const kustomized = spawnSync('kubectl', ['kustomize', KUSTOMIZATION], { encoding: 'utf8' });
// .ci/run installs Debian's kubernetes-client; elsewhere kubectl may be missing.
const noKubectl = kustomized.error ? `kubectl is not installed (${kustomized.error.message}); .ci/run installs Debian's kubernetes-client` : undefined;

t.test('kubectl kustomize deploy/kubernetes renders them, as this test reads them', { skip: noKubectl }, async (t) => {
  t.equal(kustomized.status, 0, kustomized.stderr);
  const rendered = parseManifests(kustomized.stdout);
  const key = (manifest: Manifest) => `${manifest.kind}/${manifest.metadata.name}`;
  t.same(rendered.map(key).sort(), manifests.map(key).sort(), 'the same objects');
  for (const manifest of manifests)
    t.same(
      rendered.find((other) => key(other) === key(manifest)),
      manifest,
      `${key(manifest)} as kubectl renders it`,
    );
});

t.test('deploy/podman plays the same objects, changed only where podman differs from a cluster', { skip: noKubectl }, async (t) => {
  const overlay = spawnSync('kubectl', ['kustomize', join(REPOSITORY, 'deploy/podman')], { encoding: 'utf8' });
  t.equal(overlay.status, 0, overlay.stderr);
  const played = parseManifests(overlay.stdout);
  t.same(played.map((manifest) => manifest.kind).sort(), ['ConfigMap', 'Deployment', 'PersistentVolumeClaim'], 'what podman kube play acts on: no Service, no Ingress');
  for (const kind of ['ConfigMap', 'PersistentVolumeClaim']) t.same(only(played, kind), only(manifests, kind), `the ${kind} as written`);
  const version = (JSON.parse(readFileSync(join(REPOSITORY, 'package.json'), 'utf8')) as { version: string }).version;
  const expected = structuredClone(deployment);
  for (const container of expected.spec.template.spec.containers) {
    container.image = `localhost/mcp-switchyard:${version}`;
    container.ports = container.ports?.map((port) => (port.name === 'http' ? { ...port, hostIP: '127.0.0.1', hostPort: 3000 } : port));
    delete container.livenessProbe;
    delete container.readinessProbe;
    delete container.startupProbe;
  }
  t.same(only(played, 'Deployment'), expected, 'the Deployment with the image built locally (the package’s version), its port on loopback, no probes, and nothing else changed');
});

t.test('the Deployment: probes, drain, non-root, read-only root, resources, scrape annotations', async (t) => {
  t.equal(hub.livenessProbe?.httpGet?.path, '/livez');
  t.equal(hub.readinessProbe?.httpGet?.path, '/readyz');
  t.equal(hub.startupProbe?.httpGet?.path, '/livez', 'a slow start is not taken for a dead process');
  const preStop = hub.lifecycle?.preStop?.exec?.command ?? [];
  t.equal(preStop[0], 'node', 'the preStop pause needs nothing but node');
  const pauseMs = Number(/setTimeout\(.*,\s*(\d+)\)/.exec(preStop.join(' '))?.[1]);
  t.ok(pauseMs >= 1000, 'load balancers get time to stop sending before the drain');
  const drainMs = Number(env.DRAIN_TIMEOUT_MS?.value);
  t.ok(drainMs > 0, 'DRAIN_TIMEOUT_MS is set');
  t.ok(
    (pod.terminationGracePeriodSeconds ?? 30) * 1000 >= pauseMs + drainMs + SHUTDOWN_AFTER_DRAIN_MS,
    'the grace period outlasts the pause, the drain and the 3 s the cut calls and the rest of the shutdown need',
  );

  t.equal(pod.securityContext?.runAsNonRoot, true);
  t.not(pod.securityContext?.runAsUser, 0);
  t.equal(pod.securityContext?.fsGroupChangePolicy, 'OnRootMismatch', 'the hub’s 0600 files are not opened to the group at every mount');
  t.equal(hub.securityContext?.readOnlyRootFilesystem, true);
  t.equal(hub.securityContext?.allowPrivilegeEscalation, false);
  t.same(hub.securityContext?.capabilities?.drop, ['ALL']);
  t.equal(pod.shareProcessNamespace, true, 'PID 1 is the pause process, which reaps what stdio servers leave behind');
  t.ok(hub.resources?.requests?.cpu && hub.resources.requests.memory && hub.resources.limits?.memory, 'requests and a memory limit');

  const annotations = deployment.spec.template.metadata.annotations ?? {};
  t.equal(annotations['prometheus.io/scrape'], 'true');
  t.equal(annotations['prometheus.io/path'], '/metrics');
  t.equal(Number(annotations['prometheus.io/port']), hub.ports?.find((port) => port.name === 'http')?.containerPort);
  t.equal(Number(imageEnv.PORT), hub.ports?.find((port) => port.name === 'http')?.containerPort, 'the port the image listens on');
});

t.test('secrets come from the Secret, settings parse as the hub parses them', async (t) => {
  for (const name of ['HUB_PASSWORD', 'MONGODB_URL']) {
    t.equal(env[name]?.valueFrom?.secretKeyRef?.name, 'mcp-switchyard', `${name} from the Secret`);
    t.equal(env[name]?.value, undefined, `${name} has no value in the manifests`);
  }
  t.not(env.HUB_PASSWORD?.valueFrom?.secretKeyRef?.optional, true, 'no pod without a password (a generated one would go to the log)');
  t.equal(env.MONGODB_URL?.valueFrom?.secretKeyRef?.optional, true, 'the embedded store when the Secret has no MONGODB_URL');
  t.ok(deployment.spec.replicas === 1 || env.MONGODB_URL?.valueFrom?.secretKeyRef?.optional === false, 'more than one replica only with MONGODB_URL');
  t.equal(deployment.spec.strategy?.type, 'Recreate', 'one pod at a time on the embedded store’s volume');

  const literal = Object.fromEntries(Object.values(env).flatMap((variable) => (variable.value === undefined ? [] : [[variable.name, variable.value]])));
  const settings = settingsFromEnvironment({ ...imageEnv, ...literal });
  const ingress = only(manifests, 'Ingress') as Manifest & { spec: { rules: { host: string }[] } };
  t.equal(settings.baseUrl, `https://${ingress.spec.rules[0]?.host}`, 'BASE_URL is the Ingress’s https URL');
  t.ok(settings.trustedProxies.length > 0, 'TRUSTED_PROXIES names the ingress controller');
});

t.test('the config and the data volume are where the image looks for them', async (t) => {
  const mounts = Object.fromEntries((hub.volumeMounts ?? []).map((mount) => [mount.name, mount]));
  const volumes = Object.fromEntries((pod.volumes ?? []).map((volume) => [volume.name, volume]));
  const configFile = imageEnv.HUB_CONFIG ?? '';
  t.equal(mounts.config?.mountPath, posix.dirname(configFile), 'the ConfigMap is mounted where HUB_CONFIG points');
  t.equal(mounts.config?.readOnly, true);
  const configMap = only(manifests, 'ConfigMap') as Manifest & { data: Record<string, string> };
  t.equal(volumes.config?.configMap?.name, configMap.metadata.name);
  const text = configMap.data[posix.basename(configFile)] ?? '';
  t.doesNotThrow(() => checkConfig(JSON.parse(text), 'configmap.yaml', {}), 'its mcp.json is a valid config');

  t.ok((imageEnv.DATA_PATH ?? '').startsWith(`${mounts.data?.mountPath}/`), 'DATA_PATH is a folder of the data volume, not its root');
  t.equal(volumes.data?.persistentVolumeClaim?.claimName, only(manifests, 'PersistentVolumeClaim').metadata.name);

  const service = only(manifests, 'Service') as Manifest & { spec: { selector: Record<string, string>; ports: { targetPort: string }[] } };
  t.match(deployment.spec.template.metadata.labels, service.spec.selector, 'the Service selects the pod');
  t.equal(service.spec.ports[0]?.targetPort, 'http');
  t.match(only(manifests, 'Ingress'), { spec: { rules: [{ http: { paths: [{ backend: { service: { name: service.metadata.name } } }] } }] } }, 'the Ingress sends to the Service');
});

t.test('the container docs stop the hub with a timeout that outlasts the default drain and the rest of the shutdown', async (t) => {
  const docs = readFileSync(join(REPOSITORY, 'docs/deployment/container.md'), 'utf8');
  const stops = [...docs.matchAll(/podman stop -t (\d+)/g)].map((match) => Number(match[1]));
  t.ok(stops.length > 0, 'the upgrade steps give podman stop a timeout');
  const { drainTimeoutMs } = settingsFromEnvironment({});
  for (const seconds of stops)
    t.ok(seconds * 1000 >= drainTimeoutMs + SHUTDOWN_AFTER_DRAIN_MS, `podman stop -t ${seconds} outlasts DRAIN_TIMEOUT_MS (${drainTimeoutMs} ms) + ${SHUTDOWN_AFTER_DRAIN_MS} ms`);
  const containerfile = readFileSync(join(REPOSITORY, 'Containerfile'), 'utf8');
  t.match(containerfile, /^STOPSIGNAL SIGTERM$/m, 'the engine stops the hub with SIGTERM, which drains');
  t.match(containerfile, /stop timeout[\s\S]*must exceed DRAIN_TIMEOUT_MS/, 'the Containerfile says what the stop timeout must exceed');
});
