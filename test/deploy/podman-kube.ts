import { isDeployment, stringifyManifests, type Manifest } from './manifests.js';

/** The kinds `podman kube play` acts on; it has nothing for a Service or an Ingress. */
const PLAYED_KINDS = new Set(['Deployment', 'PersistentVolumeClaim', 'ConfigMap']);

export interface PodmanRendering {
  /** The image the test built, in place of the registry name the kustomization sets. */
  image: string;
  /** The loopback port the container's `http` port is published on. */
  hostPort: number;
  /**
   * Whether to include the PersistentVolumeClaim: false when its volume exists already. On
   * a cluster the claim outlives the pod; podman refuses to create the volume a second time.
   */
  withClaim: boolean;
}

/**
 * The manifests as `podman kube play` runs them. Where podman differs from a cluster, and
 * only there, they are changed:
 *
 * - only the kinds podman plays are kept (the Deployment becomes one pod, the claim a
 *   named volume, the ConfigMap the config volume);
 * - the container runs the image the test built, its port published on a loopback port of
 *   the host (on a cluster the Service and the Ingress reach it);
 * - the probes are dropped: podman turns an httpGet probe into a `curl` command run by
 *   systemd timers inside the container, and a node image has no curl (the test waits on
 *   /readyz itself).
 *
 * Everything else (environment, secret references, security context, volumes, resources)
 * is played as written. The Secret is never part of the manifests; `podmanSecret` makes
 * the one they refer to.
 */
export function renderForPodman(manifests: Manifest[], rendering: PodmanRendering): string {
  const played = structuredClone(manifests).filter((manifest) => PLAYED_KINDS.has(manifest.kind) && (rendering.withClaim || manifest.kind !== 'PersistentVolumeClaim'));
  for (const deployment of played.filter(isDeployment)) {
    for (const container of deployment.spec.template.spec.containers) {
      container.image = rendering.image;
      container.ports = container.ports?.map((port) => (port.name === 'http' ? { ...port, hostPort: rendering.hostPort, hostIP: '127.0.0.1' } : port));
      delete container.livenessProbe;
      delete container.readinessProbe;
      delete container.startupProbe;
    }
  }
  return stringifyManifests(played);
}

/**
 * A podman secret's content for `secretKeyRef`: what podman 4.3 reads is a JSON object of
 * base64 values (later podman reads it too). It does not read the Secret documents its own
 * `kube play` stores.
 */
export function podmanSecret(values: Record<string, string>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Buffer.from(value).toString('base64')])));
}
