import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments, stringify } from 'yaml';

/** The checkout (this file runs from dist/test/deploy/). */
export const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
export const KUSTOMIZATION = join(REPOSITORY, 'deploy/kubernetes');

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

export interface Probe {
  httpGet?: { path: string; port: number | string };
  periodSeconds?: number;
  failureThreshold?: number;
}

export interface Container {
  name: string;
  image: string;
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number; hostPort?: number; hostIP?: string }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

export interface Deployment extends Manifest {
  spec: {
    replicas: number;
    strategy?: { type: string };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds?: number;
        shareProcessNamespace?: boolean;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; fsGroup?: number; fsGroupChangePolicy?: string };
        containers: Container[];
        volumes?: { name: string; configMap?: { name: string }; persistentVolumeClaim?: { claimName: string } }[];
      };
    };
  };
}

interface Kustomization {
  resources: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
}

/** What this reader applies; any other kustomization field would be ignored here, so it is refused. */
const UNDERSTOOD = new Set(['apiVersion', 'kind', 'resources', 'images']);

/**
 * The objects `kubectl kustomize deploy/kubernetes` renders, read without kubectl for what
 * this kustomization uses: its resources, with `images` applied to the containers. The
 * kustomize test checks the two agree where kubectl exists.
 */
export function loadManifests(): Manifest[] {
  const kustomization = parse(readFileSync(join(KUSTOMIZATION, 'kustomization.yaml'), 'utf8')) as Kustomization;
  const unknown = Object.keys(kustomization).filter((field) => !UNDERSTOOD.has(field));
  if (unknown.length > 0) throw new Error(`kustomization.yaml uses ${unknown.join(', ')}, which test/deploy/manifests.ts does not apply`);
  const manifests = kustomization.resources.flatMap((file) => parseManifests(readFileSync(join(KUSTOMIZATION, file), 'utf8')));
  for (const deployment of manifests.filter(isDeployment)) {
    for (const container of deployment.spec.template.spec.containers) {
      const image = kustomization.images?.find(({ name }) => name === container.image);
      if (image) container.image = `${image.newName ?? image.name}${image.newTag === undefined ? '' : `:${image.newTag}`}`;
    }
  }
  return manifests;
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

export function stringifyManifests(manifests: Manifest[]): string {
  return manifests.map((manifest) => stringify(manifest)).join('---\n');
}

export function isDeployment(manifest: Manifest): manifest is Deployment {
  return manifest.kind === 'Deployment';
}

/** The one object of `kind`. */
export function only(manifests: Manifest[], kind: string): Manifest {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0]!;
}
