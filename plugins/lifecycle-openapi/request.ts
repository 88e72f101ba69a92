import type { OpenAPIV3 } from 'openapi-types';
import type { Operation } from './operations.js';
import { PARAMETER_GROUPS, type ArgumentTarget, type OperationTool } from './tools.js';

/** A call's arguments by location: the grouped shape (see tools.ts), which flat arguments are mapped to. */
export interface CallArguments {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  cookies?: Record<string, unknown>;
  body?: unknown;
}

export interface PlannedRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** An argument the request cannot carry: a tool error in the caller's words. */
export class ArgumentProblem extends Error {
  override readonly name = 'ArgumentProblem';
}

/**
 * The HTTP request of one call: parameters serialised by their OpenAPI style (`simple`
 * for path and headers, `form` for the query, `deepObject` where declared), the body as
 * JSON, and the URL checked to be on the base URL's origin whatever the arguments say.
 */
export function planRequest(planned: OperationTool, given: Record<string, unknown>, fixedHeaders: Record<string, string>): PlannedRequest {
  const { operation } = planned;
  const args = planned.flat ? grouped(planned.flat, given, operation.requestBody?.required === true) : (given as CallArguments);
  const url = new URL(operation.base.href);
  const basePath = url.pathname.replace(/\/+$/, '');
  const path = operation.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => pathSegment(operation, name, args.path?.[name]));
  url.pathname = `${basePath}${path}`;
  for (const parameter of parametersIn(operation, 'query')) {
    const value = args.query?.[parameter.name];
    if (value !== undefined) appendQuery(url.searchParams, parameter, value);
  }
  if (url.origin !== operation.base.origin) throw new ArgumentProblem(`the request would leave ${operation.base.origin}`);

  const headers: Record<string, string> = { accept: 'application/json, */*;q=0.8' };
  for (const parameter of parametersIn(operation, 'header')) {
    const value = args.headers?.[parameter.name];
    if (value !== undefined) headers[parameter.name.toLowerCase()] = headerValue(value);
  }
  const cookies = parametersIn(operation, 'cookie').flatMap((parameter) => {
    const value = args.cookies?.[parameter.name];
    return value === undefined ? [] : [`${encodeURIComponent(parameter.name)}=${encodeURIComponent(plain(parameter, value))}`];
  });
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  let body: string | undefined;
  if (args.body !== undefined && planned.bodyType !== undefined) {
    body = JSON.stringify(args.body);
    headers['content-type'] = planned.bodyType;
  }
  // The operator's headers (credentials) win over what a caller puts in `headers`.
  for (const [name, value] of Object.entries(fixedHeaders)) headers[name.toLowerCase()] = value;
  return { url, method: operation.method.toUpperCase(), headers, body };
}

/** Flat arguments put back in their locations; one the tool does not take is refused (even where no schema checked it). */
function grouped(flat: Map<string, ArgumentTarget>, given: Record<string, unknown>, bodyRequired: boolean): CallArguments {
  // Without prototypes: a parameter named "constructor" that is not given must read as absent.
  const fresh = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;
  const args = { path: fresh(), query: fresh(), headers: fresh(), cookies: fresh() };
  const properties = fresh();
  let body: unknown;
  for (const [key, value] of Object.entries(given)) {
    const target = flat.get(key);
    if (!target) throw new ArgumentProblem(`unknown argument "${key}"`);
    if (value === undefined) continue;
    if (target.location !== 'body') args[PARAMETER_GROUPS[target.location]][target.name ?? key] = value;
    else if (target.name === undefined) body = value;
    else properties[target.name] = value;
  }
  // A required object body is sent even when none of its (optional) properties is given.
  const spread = [...flat.values()].some((target) => target.location === 'body' && target.name !== undefined);
  if (spread && (bodyRequired || Object.keys(properties).length > 0)) body = properties;
  return { ...args, body };
}

function parametersIn(operation: Operation, location: keyof typeof PARAMETER_GROUPS): OpenAPIV3.ParameterObject[] {
  return operation.parameters.filter((parameter) => parameter.in === location);
}

function pathSegment(operation: Operation, name: string, value: unknown): string {
  if (value === undefined) throw new ArgumentProblem(`path parameter "${name}" is required`);
  const parameter = operation.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name);
  const text = plain(parameter ?? { name, in: 'path' }, value);
  // "." and ".." are dot segments even encoded: the URL would climb the path.
  if (/^\.{1,2}$/.test(text)) throw new ArgumentProblem(`path parameter "${name}" may not be "${text}"`);
  // Encoded, a "/" stays in the segment, but an upstream (or a proxy before it) that
  // decodes %2F before routing would route it: a value that names another path is refused.
  if (!inOneSegment(text)) throw new ArgumentProblem(`path parameter "${name}" may not hold "/", "\\" or "..", even percent-encoded`);
  return encodeURIComponent(text);
}

/** Whether `text`, as given and once or twice percent-decoded, stays one path segment that does not climb. */
function inOneSegment(text: string): boolean {
  let value = text;
  for (let round = 0; round < 3; round++) {
    if (/[/\\]|\.\./.test(value)) return false;
    const decoded = percentDecoded(value);
    if (decoded === value) return true;
    value = decoded;
  }
  return false;
}

function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A value in the `simple` style: lists and objects comma-separated (`explode` writes `key=value`). */
function plain(parameter: OpenAPIV3.ParameterObject, value: unknown): string {
  if (parameter.content) return JSON.stringify(value);
  if (Array.isArray(value)) return value.map(String).join(',');
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    return parameter.explode === true ? entries.map(([key, item]) => `${key}=${String(item)}`).join(',') : entries.flat().map(String).join(',');
  }
  return String(value);
}

function headerValue(value: unknown): string {
  const text = Array.isArray(value) ? value.map(String).join(',') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  if (/[\r\n\0]/.test(text)) throw new ArgumentProblem('a header value may not contain line breaks');
  return text;
}

/** A query parameter in its style: `form` (default, exploded), `spaceDelimited`, `pipeDelimited` or `deepObject`. */
function appendQuery(query: URLSearchParams, parameter: OpenAPIV3.ParameterObject, value: unknown): void {
  const name = parameter.name;
  if (parameter.content) return query.append(name, JSON.stringify(value));
  const style = parameter.style ?? 'form';
  const explode = parameter.explode ?? style === 'form';
  if (Array.isArray(value)) {
    if (explode && style === 'form') for (const item of value) query.append(name, String(item));
    else query.append(name, value.map(String).join(style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ','));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (style === 'deepObject') for (const [key, item] of entries) query.append(`${name}[${key}]`, String(item));
    else if (explode) for (const [key, item] of entries) query.append(key, String(item));
    else query.append(name, entries.flat().map(String).join(','));
    return;
  }
  query.append(name, String(value));
}
