import type { Tool } from '@modelcontextprotocol/server';
import type { OpenAPIV3 } from 'openapi-types';
import { isObjectSchema, toJsonSchema, type JsonSchema } from './json-schema.js';
import type { Operation } from './operations.js';

/** The input's groups, by where OpenAPI puts a parameter. */
export const PARAMETER_GROUPS = { path: 'path', query: 'query', header: 'headers', cookie: 'cookies' } as const;
export type ParameterLocation = keyof typeof PARAMETER_GROUPS;

const MAX_DESCRIPTION = 4000;

/** One operation as a tool, with what a call of it needs. */
export interface OperationTool {
  operation: Operation;
  tool: Tool;
  /** The JSON media type of the request body, when the tool takes a `body`. */
  bodyType: string | undefined;
  /** Whether the structured answer is the JSON value under `result` (a value that is not an object). */
  wrapsResult: boolean;
}

export function isJsonMediaType(type: string | undefined): boolean {
  if (type === undefined) return false;
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(essence);
}

/**
 * The tool of one operation. Its input is one object, the same shape for every
 * operation: `path`, `query`, `headers` and `cookies` hold the parameters of that
 * location by their names, and `body` the JSON request body; a group is there when the
 * operation has such parameters, and required when one of them is.
 */
export function operationTool(operation: Operation, version: '3.0' | '3.1'): OperationTool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [location, group] of Object.entries(PARAMETER_GROUPS) as [ParameterLocation, string][]) {
    const parameters = operation.parameters.filter((parameter) => parameter.in === location);
    if (parameters.length === 0) continue;
    const members: Record<string, JsonSchema> = {};
    const needed: string[] = [];
    for (const parameter of parameters) {
      members[parameter.name] = parameterSchema(parameter, version);
      if (parameter.required === true || location === 'path') needed.push(parameter.name);
    }
    properties[group] = { type: 'object', properties: members, ...(needed.length > 0 && { required: needed }), additionalProperties: false };
    if (needed.length > 0) required.push(group);
  }
  const body = jsonBody(operation.requestBody);
  if (body) {
    properties.body = { ...toJsonSchema(body.schema, version, 'input'), ...(operation.requestBody?.description && { description: operation.requestBody.description }) };
    if (operation.requestBody?.required === true) required.push('body');
  }
  const output = outputSchema(operation.responses, version);
  const wrapsResult = output !== undefined && !isObjectSchema(output);
  const method = operation.method;
  const readOnly = method === 'get' || method === 'head';
  const tool: Tool = {
    name: operation.toolName,
    ...(operation.summary && { title: operation.summary }),
    description: describe(operation),
    inputSchema: { type: 'object', properties, ...(required.length > 0 && { required }), additionalProperties: false } as Tool['inputSchema'],
    // MCP's output schemas are object schemas with `type: "object"` said at the top (the 2025-11-25 wire wraps any other).
    ...(output && { outputSchema: (wrapsResult ? { type: 'object', properties: { result: output }, required: ['result'] } : { ...output, type: 'object' }) as Tool['outputSchema'] }),
    annotations: {
      ...(operation.summary && { title: operation.summary }),
      readOnlyHint: readOnly,
      destructiveHint: method === 'delete',
      idempotentHint: readOnly || method === 'put' || method === 'delete',
      openWorldHint: true,
    },
  };
  return { operation, tool, bodyType: body?.type, wrapsResult };
}

function parameterSchema(parameter: OpenAPIV3.ParameterObject, version: '3.0' | '3.1'): JsonSchema {
  // A parameter with `content` instead of `schema` is sent as the JSON text of its value.
  const source = parameter.schema ?? Object.values(parameter.content ?? {})[0]?.schema ?? {};
  const schema = toJsonSchema(source, version, 'input');
  return {
    ...schema,
    ...(parameter.description && { description: parameter.description }),
    ...(parameter.deprecated === true && { deprecated: true }),
  };
}

/** The JSON request body, if the operation takes one. */
export function jsonBody(body: OpenAPIV3.RequestBodyObject | undefined): { type: string; schema: unknown } | undefined {
  const entry = Object.entries(body?.content ?? {}).find(([type]) => isJsonMediaType(type));
  return entry ? { type: entry[0], schema: entry[1].schema ?? {} } : undefined;
}

/** The schema of the 2xx JSON answer, when every 2xx answer the document declares is JSON with one schema. */
function outputSchema(responses: OpenAPIV3.ResponsesObject, version: '3.0' | '3.1'): JsonSchema | undefined {
  const successes = Object.entries(responses).filter(([status]) => /^2(\d\d|XX)$/i.test(status));
  if (successes.length !== 1) return undefined;
  const response = successes[0]?.[1] as OpenAPIV3.ResponseObject;
  const json = Object.entries(response.content ?? {}).find(([type]) => isJsonMediaType(type));
  if (!json?.[1].schema) return undefined;
  return toJsonSchema(json[1].schema, version, 'output');
}

function describe(operation: Operation): string {
  const parts = [operation.summary, operation.description].filter((part): part is string => typeof part === 'string' && part.trim() !== '');
  // A summary repeated as the description's first line says nothing new.
  if (parts.length === 2 && parts[1]?.trim().startsWith(parts[0]?.trim() ?? '')) parts.shift();
  parts.push(`${operation.label}${operation.deprecated ? ' (deprecated)' : ''}`);
  const text = parts.join('\n\n');
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
