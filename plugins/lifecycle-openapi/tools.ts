import type { Tool } from '@modelcontextprotocol/server';
import type { OpenAPIV3 } from 'openapi-types';
import { isObjectSchema, toJsonSchema, type JsonSchema } from './json-schema.js';
import type { Operation } from './operations.js';

/** The input's groups, by where OpenAPI puts a parameter. */
export const PARAMETER_GROUPS = { path: 'path', query: 'query', header: 'headers', cookie: 'cookies' } as const;
export type ParameterLocation = keyof typeof PARAMETER_GROUPS;

/** How a tool takes its arguments: one flat object (the default), or grouped by location. */
export type ArgumentShape = 'flat' | 'grouped';

/** Where one flat argument goes: a parameter, a property of the JSON body, or (no `name`) the whole body. */
export interface ArgumentTarget {
  location: ParameterLocation | 'body';
  name?: string;
}

const MAX_DESCRIPTION = 4000;

/** One operation as a tool, with what a call of it needs. */
export interface OperationTool {
  operation: Operation;
  tool: Tool;
  /** The JSON media type of the request body, when the tool takes a `body`. */
  bodyType: string | undefined;
  /** Whether the structured answer is the JSON value under `result` (a value that is not an object). */
  wrapsResult: boolean;
  /** With flat arguments, where each argument goes; undefined for the grouped shape. */
  flat: Map<string, ArgumentTarget> | undefined;
}

export function isJsonMediaType(type: string | undefined): boolean {
  if (type === undefined) return false;
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(essence);
}

/**
 * The tool of one operation. Flat (the default), its input is one object holding the path,
 * query, header and cookie parameters and the JSON body's top-level properties by their
 * names (see `flatInput`). Grouped, it is the same shape for every operation: `path`,
 * `query`, `headers` and `cookies` hold the parameters of that location by their names,
 * and `body` the JSON request body; a group is there when the operation has such
 * parameters, and required when one of them is.
 */
export function operationTool(operation: Operation, version: '3.0' | '3.1', shape: ArgumentShape = 'flat'): OperationTool {
  const body = jsonBody(operation.requestBody);
  const input = shape === 'flat' ? flatInput(operation, version, body) : { ...groupedInput(operation, version, body), flat: undefined };
  const output = outputSchema(operation.responses, version);
  const wrapsResult = output !== undefined && !isObjectSchema(output);
  const method = operation.method;
  const readOnly = method === 'get' || method === 'head';
  const tool: Tool = {
    name: operation.toolName,
    ...(operation.summary && { title: operation.summary }),
    description: describe(operation),
    inputSchema: { type: 'object', properties: input.properties, ...(input.required.length > 0 && { required: input.required }), additionalProperties: false } as Tool['inputSchema'],
    // MCP's output schemas are object schemas with `type: "object"` said at the top (the 2025-11-25 wire wraps any other).
    ...(output && { outputSchema: wrapsResult ? { type: 'object', properties: { result: output }, required: ['result'] } : { ...output, type: 'object' } }),
    annotations: {
      ...(operation.summary && { title: operation.summary }),
      readOnlyHint: readOnly,
      destructiveHint: method === 'delete',
      idempotentHint: readOnly || method === 'put' || method === 'delete',
      openWorldHint: true,
    },
  };
  return { operation, tool, bodyType: body?.type, wrapsResult, flat: input.flat };
}

interface Input {
  properties: Record<string, JsonSchema>;
  required: string[];
}

function groupedInput(operation: Operation, version: '3.0' | '3.1', body: JsonBody | undefined): Input {
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
  if (body) {
    properties.body = bodySchema(operation, body, version);
    if (operation.requestBody?.required === true) required.push('body');
  }
  return { properties, required };
}

/**
 * The flat input: each parameter and each top-level property of an object body under its
 * own name. A name that two locations use is prefixed with its location in all of them
 * (`query_id`, `body_id`; locations `path`, `query`, `header`, `cookie`, `body`), and a
 * prefixed name still taken gets `_2`, `_3`, in the order path, query, header, cookie,
 * body. A body that is not an object with properties (a list, a string, a union) is
 * taken whole under `body`, a name like any other. Required: path parameters, required
 * parameters, and the required properties of a required body.
 */
function flatInput(operation: Operation, version: '3.0' | '3.1', body: JsonBody | undefined): Input & { flat: Map<string, ArgumentTarget> } {
  const members: { target: ArgumentTarget; key: string; schema: JsonSchema; required: boolean }[] = [];
  for (const location of Object.keys(PARAMETER_GROUPS) as ParameterLocation[]) {
    for (const parameter of operation.parameters.filter((candidate) => candidate.in === location)) {
      members.push({ target: { location, name: parameter.name }, key: parameter.name, schema: parameterSchema(parameter, version), required: parameter.required === true || location === 'path' });
    }
  }
  if (body) {
    const schema = bodySchema(operation, body, version);
    const bodyRequired = operation.requestBody?.required === true;
    const spread = spreadable(schema);
    if (spread) {
      const needed = new Set(Array.isArray(schema.required) ? schema.required : []);
      for (const [name, property] of Object.entries(spread)) members.push({ target: { location: 'body', name }, key: name, schema: property, required: bodyRequired && needed.has(name) });
    } else members.push({ target: { location: 'body' }, key: 'body', schema, required: bodyRequired });
  }
  const uses = new Map<string, number>();
  for (const member of members) uses.set(member.key, (uses.get(member.key) ?? 0) + 1);
  const taken = new Set(members.filter((member) => uses.get(member.key) === 1).map((member) => member.key));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const flat = new Map<string, ArgumentTarget>();
  for (const member of members) {
    let key = member.key;
    if (uses.get(key) !== 1) {
      const prefixed = `${member.target.location}_${key}`;
      key = prefixed;
      for (let n = 2; taken.has(key); n++) key = `${prefixed}_${n}`;
      taken.add(key);
    }
    properties[key] = member.schema;
    if (member.required) required.push(key);
    flat.set(key, member.target);
  }
  return { properties, required, flat };
}

/** The properties of a body schema that describes objects of known properties only, to be taken one by one. */
function spreadable(schema: JsonSchema): Record<string, JsonSchema> | undefined {
  // A nullable object (OpenAPI 3.0's `nullable`, converted) is spread too: a call sends an object.
  const types = schema.type === undefined ? ['object'] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes('object') || types.some((type) => type !== 'object' && type !== 'null')) return undefined;
  if (['allOf', 'anyOf', 'oneOf', 'not', 'if', 'patternProperties'].some((keyword) => schema[keyword] !== undefined)) return undefined;
  // A map with some known keys (extra keys of a schema of their own) cannot be spread without losing them.
  if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null && Object.keys(schema.additionalProperties).length > 0) return undefined;
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties) || Object.keys(properties).length === 0) return undefined;
  return properties as Record<string, JsonSchema>;
}

function bodySchema(operation: Operation, body: JsonBody, version: '3.0' | '3.1'): JsonSchema {
  return { ...toJsonSchema(body.schema, version, 'input'), ...(operation.requestBody?.description && { description: operation.requestBody.description }) };
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

type JsonBody = { type: string; schema: unknown };

/** The JSON request body, if the operation takes one. */
export function jsonBody(body: OpenAPIV3.RequestBodyObject | undefined): JsonBody | undefined {
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
