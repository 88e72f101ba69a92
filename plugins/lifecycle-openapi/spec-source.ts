import { stat, readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3, OpenAPIV3_1 } from 'openapi-types';
import { parse } from 'yaml';
import { guardedFetch } from '../../core/plugin/auth.js';
import { OPENAPI_ERROR_CODES, OpenApiError } from './errors.js';

export type OpenApiDocument = OpenAPIV3.Document | OpenAPIV3_1.Document;

export interface SpecLimits {
  allowLoopback: boolean;
  maxBytes: number;
  timeoutMs: number;
}

/** A document read, validated and with every `$ref` resolved (cycles stay cycles). */
export interface LoadedSpec {
  document: OpenApiDocument;
  /** `3.0` or `3.1`: how its schemas are read. */
  version: '3.0' | '3.1';
  /** The file path or URL it came from, for messages and for relative server URLs. */
  location: string;
  isUrl: boolean;
}

const URL_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Where `spec` points: an absolute file path, or a URL. */
export function specLocation(spec: string, configDirectory: string): { location: string; isUrl: boolean } {
  if (URL_FORM.test(spec)) return { location: spec, isUrl: true };
  return { location: isAbsolute(spec) ? spec : resolve(configDirectory, spec), isUrl: false };
}

/**
 * Reads an OpenAPI document from a file or a URL and resolves its `$ref`s with
 * swagger-parser (the spec's own validation included). A URL, and any URL a `$ref` names,
 * goes through the hub's SSRF guard (https to public addresses, size cap, deadline); a
 * document fetched from a URL may not reach into local files.
 */
export async function loadSpec(spec: string, configDirectory: string, limits: SpecLimits): Promise<LoadedSpec> {
  const { location, isUrl } = specLocation(spec, configDirectory);
  const fetch = guardedFetch(limits);
  const readUrl = async (url: string): Promise<string> => {
    let response: Response;
    try {
      response = await fetch(url, { headers: { accept: 'application/json, application/yaml, text/yaml, */*' } });
    } catch (error) {
      throw new OpenApiError(OPENAPI_ERROR_CODES.SPEC_UNREADABLE, `the OpenAPI document ${url} could not be fetched: ${(error as Error).message}`, { cause: error });
    }
    if (!response.ok) throw new OpenApiError(OPENAPI_ERROR_CODES.SPEC_UNREADABLE, `the OpenAPI document ${url} could not be fetched: it answered ${response.status}`);
    return response.text();
  };
  const text = isUrl ? await readUrl(location) : await readSpecFile(location, limits.maxBytes);
  let raw: unknown;
  try {
    // YAML 1.2 reads JSON as well.
    raw = parse(text, { maxAliasCount: 1000 });
  } catch (error) {
    throw new OpenApiError(OPENAPI_ERROR_CODES.SPEC_INVALID, `${location} is neither JSON nor YAML: ${(error as Error).message}`, { cause: error });
  }
  const version = documentVersion(raw, location);
  let document: OpenApiDocument;
  try {
    document = (await SwaggerParser.validate(location, raw as OpenApiDocument, {
      resolve: {
        external: true,
        ...(isUrl && { file: false }),
        http: { canRead: /^https?:\/\//i, read: (file: { url: string }) => readUrl(file.url) },
      },
      dereference: { circular: true },
      validate: { schema: true, spec: true },
    })) as OpenApiDocument;
  } catch (error) {
    if (error instanceof OpenApiError) throw error;
    throw new OpenApiError(OPENAPI_ERROR_CODES.SPEC_INVALID, `${location} is not a valid OpenAPI ${version} document: ${firstLine((error as Error).message)}`, { cause: error });
  }
  return { document, version, location, isUrl };
}

function documentVersion(raw: unknown, location: string): '3.0' | '3.1' {
  const document = (typeof raw === 'object' && raw !== null ? raw : {}) as { swagger?: unknown; openapi?: unknown };
  if (document.swagger !== undefined) {
    throw new OpenApiError(
      OPENAPI_ERROR_CODES.SPEC_INVALID,
      `${location} is a Swagger ${typeof document.swagger === 'string' ? document.swagger : JSON.stringify(document.swagger)} document; the openapi type reads OpenAPI 3.0 and 3.1: convert it first (swagger2openapi, or the Swagger Editor's "Convert to OpenAPI 3")`,
    );
  }
  const version = typeof document.openapi === 'string' ? /^3\.(0|1)\.\d+/.exec(document.openapi)?.[1] : undefined;
  if (version === undefined)
    throw new OpenApiError(
      OPENAPI_ERROR_CODES.SPEC_INVALID,
      `${location} is not an OpenAPI 3.0 or 3.1 document (its "openapi" field is ${document.openapi === undefined ? 'missing' : JSON.stringify(document.openapi)})`,
    );
  return version === '0' ? '3.0' : '3.1';
}

async function readSpecFile(path: string, maxBytes: number): Promise<string> {
  const file = path.startsWith('file://') ? new URL(path).pathname : path;
  try {
    const found = await stat(file);
    if (!found.isFile()) throw new OpenApiError(OPENAPI_ERROR_CODES.SPEC_UNREADABLE, `the OpenAPI document ${file} is not a regular file`);
    if (found.size > maxBytes) throw new OpenApiError(OPENAPI_ERROR_CODES.SPEC_UNREADABLE, `the OpenAPI document ${file} is larger than ${maxBytes} bytes`);
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof OpenApiError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new OpenApiError(OPENAPI_ERROR_CODES.SPEC_UNREADABLE, `the OpenAPI document ${file} ${code === 'ENOENT' ? 'does not exist' : `cannot be read: ${(error as Error).message}`}`, {
      cause: error,
    });
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? text;
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
