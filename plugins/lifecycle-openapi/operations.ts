import type { OpenAPIV3 } from 'openapi-types';
import { OPENAPI_ERROR_CODES, OpenApiError } from './errors.js';
import type { LoadedSpec } from './spec-source.js';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One operation of the document, with what a call needs (3.0 and 3.1 share these shapes once dereferenced). */
export interface Operation {
  method: HttpMethod;
  /** The path template as the document writes it (`/notes/{id}`). */
  path: string;
  operationId: string | undefined;
  /** `METHOD /path`, how `operations` and messages name it. */
  label: string;
  toolName: string;
  /** Where this operation is called: the base URL, or the operation's own server on the same origin. */
  base: URL;
  summary: string | undefined;
  description: string | undefined;
  deprecated: boolean;
  parameters: OpenAPIV3.ParameterObject[];
  requestBody: OpenAPIV3.RequestBodyObject | undefined;
  responses: OpenAPIV3.ResponsesObject;
}

/** An operation the hub does not offer, and why (for the log and `hub check`). */
export interface RefusedOperation {
  label: string;
  reason: string;
}

export interface OperationSet {
  base: URL;
  operations: Operation[];
  refused: RefusedOperation[];
}

/** MCP's rule for tool names: 1 to 128 of A-Z, a-z, 0-9, `_`, `-` and `.`. */
const TOOL_NAME_LENGTH = 128;

export interface OperationChoice {
  /** The entry's `baseUrl`. */
  baseUrl: string | undefined;
  /** The entry's `operations`. */
  operations: readonly string[] | undefined;
  /** Whether the entry's `allowTools` narrows the tools. */
  narrowedByAllowTools: boolean;
  maxOperations: number;
}

/**
 * The operations that become tools: every one the document declares, or those
 * `operations` names. An operation whose own `servers` would send the hub to another
 * origin than the base URL's is refused (listed in `refused`; an error when `operations`
 * names it). Too many operations without a narrowing is an error: a model cannot choose
 * among hundreds of tools.
 */
export function selectOperations(spec: LoadedSpec, choice: OperationChoice): OperationSet {
  const base = baseUrlOf(spec, choice.baseUrl);
  const all: Operation[] = [];
  const refused: RefusedOperation[] = [];
  const names = new Set<string>();
  for (const [path, item] of Object.entries(spec.document.paths ?? {})) {
    if (item === undefined) continue;
    const pathItem = item as OpenAPIV3.PathItemObject;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (operation === undefined) continue;
      const label = `${method.toUpperCase()} ${path}`;
      if (!path.startsWith('/')) {
        refused.push({ label, reason: 'its path does not start with "/"' });
        continue;
      }
      const servers = operation.servers ?? pathItem.servers;
      const own = servers && servers.length > 0 ? serverUrl(servers[0] as OpenAPIV3.ServerObject, base.href) : base;
      if (own === undefined || own.origin !== base.origin) {
        refused.push({ label, reason: `its server ${own?.href ?? '(not a URL)'} is not on the base URL's origin ${base.origin}` });
        continue;
      }
      all.push({
        method,
        path,
        operationId: operation.operationId,
        label,
        toolName: uniqueName(toolNameOf(operation.operationId, method, path), names),
        base: own,
        summary: operation.summary ?? pathItem.summary,
        description: operation.description ?? pathItem.description,
        deprecated: operation.deprecated === true,
        parameters: mergedParameters(pathItem.parameters, operation.parameters),
        requestBody: operation.requestBody as OpenAPIV3.RequestBodyObject | undefined,
        // OpenAPI 3.1 lets an operation leave out its responses, which openapi-types' path item does not say.
        responses: (operation as { responses?: OpenAPIV3.ResponsesObject }).responses ?? {},
      });
    }
  }
  const operations = choice.operations ? pick(all, choice.operations, refused) : all;
  if (!choice.operations && !choice.narrowedByAllowTools && operations.length > choice.maxOperations) {
    throw new OpenApiError(
      OPENAPI_ERROR_CODES.TOO_MANY_OPERATIONS,
      `the document declares ${operations.length} operations, more than ${choice.maxOperations} tools a model can choose among: name the ones to offer in "operations" (operationIds or "METHOD /path") or "allowTools"`,
    );
  }
  return { base, operations, refused };
}

function pick(all: Operation[], wanted: readonly string[], refused: RefusedOperation[]): Operation[] {
  const chosen = new Set<Operation>();
  for (const name of wanted) {
    const byLabel = /^([A-Za-z]+)\s+(\/.*)$/.exec(name.trim());
    const found = byLabel
      ? all.find((operation) => operation.method === byLabel[1]?.toLowerCase() && operation.path === byLabel[2])
      : all.find((operation) => operation.operationId === name || operation.toolName === name);
    if (found) {
      chosen.add(found);
      continue;
    }
    const refusal = byLabel ? refused.find((operation) => operation.label.toLowerCase() === `${byLabel[1]} ${byLabel[2]}`.toLowerCase()) : undefined;
    throw new OpenApiError(
      OPENAPI_ERROR_CODES.OPERATION_UNKNOWN,
      refusal
        ? `"operations" names ${refusal.label}, which is refused: ${refusal.reason}`
        : `"operations" names ${JSON.stringify(name)}, which the document does not declare (an operationId or "METHOD /path")`,
    );
  }
  return all.filter((operation) => chosen.has(operation));
}

/** Path-level parameters apply unless the operation redefines one (same name and location). */
function mergedParameters(pathLevel: unknown[] | undefined, own: unknown[] | undefined): OpenAPIV3.ParameterObject[] {
  const merged = new Map<string, OpenAPIV3.ParameterObject>();
  for (const parameter of [...(pathLevel ?? []), ...(own ?? [])] as OpenAPIV3.ParameterObject[]) merged.set(`${parameter.in}:${parameter.name}`, parameter);
  return [...merged.values()];
}

export function toolNameOf(operationId: string | undefined, method: HttpMethod, path: string): string {
  const source = operationId?.trim() ? operationId : `${method}_${path}`;
  const name = source
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_|_$/g, '');
  return (name || method).slice(0, TOOL_NAME_LENGTH);
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name.slice(0, TOOL_NAME_LENGTH - String(n).length - 1)}_${n}`;
  taken.add(candidate);
  return candidate;
}

/** The base URL: the entry's, or the document's first server (its variables at their defaults). */
export function baseUrlOf(spec: LoadedSpec, configured: string | undefined): URL {
  const first = spec.document.servers?.[0];
  const url = configured !== undefined ? parsed(configured) : first ? serverUrl(first, spec.isUrl ? spec.location : undefined) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const what =
      configured !== undefined
        ? `"baseUrl" ${JSON.stringify(configured)}`
        : first
          ? `the document's first server ${JSON.stringify(first.url)}`
          : 'the document names no server and there is no "baseUrl"';
    throw new OpenApiError(OPENAPI_ERROR_CODES.BASE_URL_INVALID, `${what}${configured !== undefined || first ? ' is not an absolute http(s) URL' : ''}: set "baseUrl" to where the API is called`);
  }
  if (url.username || url.password) throw new OpenApiError(OPENAPI_ERROR_CODES.BASE_URL_INVALID, 'the base URL carries credentials: put them in "headers"');
  url.search = '';
  url.hash = '';
  return url;
}

function serverUrl(server: OpenAPIV3.ServerObject, relativeTo: string | undefined): URL | undefined {
  const expanded = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => server.variables?.[name]?.default ?? whole);
  return parsed(expanded, relativeTo);
}

function parsed(url: string, relativeTo?: string): URL | undefined {
  try {
    return new URL(url, relativeTo);
  } catch {
    return undefined;
  }
}
