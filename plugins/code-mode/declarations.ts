/**
 * TypeScript declarations from JSON Schemas, written by hand rather than with a library
 * (json-schema-to-typescript formats with prettier and resolves `$ref`s asynchronously,
 * across files): what a model needs is a readable, deterministic subset, synchronous and
 * inlined per tool, where anything the subset does not cover is `unknown` (never a type
 * that would lie).
 */

type Schema = Record<string, unknown>;

/** How deep a schema is followed before the rest is `unknown`. */
const MAX_DEPTH = 8;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Reserved words cannot name a namespace, an interface or a parameter.
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private protected public static yield any boolean number string symbol type from of unknown never object namespace declare module async await'.split(
    ' ',
  ),
);

/** A name usable as an identifier: the name itself when it is one, else with every other character `_`. */
export function identifierFor(name: string): string {
  const replaced = name.replace(/[^A-Za-z0-9_$]/g, '_');
  const start = /^[A-Za-z_$]/.test(replaced) ? replaced : `_${replaced}`;
  return RESERVED.has(start) ? `${start}_` : start;
}

/** A property key as TypeScript writes it: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `get-sum` → `GetSum`: the stem of a tool's type names. */
export function pascalCase(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const joined = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return identifierFor(joined === '' ? 'Tool' : joined);
}

/** A description as a doc comment at `indent`, or nothing. Never closes early on a `*\/` in the text. */
export function docComment(text: string | undefined, indent: string): string {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return '';
  const lines = trimmed.replaceAll('*/', '*\\/').split(/\r?\n/);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line === '' ? '' : ` ${line}`}`).join('\n')}\n${indent} */\n`;
}

/** The TypeScript type of a JSON Schema, written at `indent` (for nested object members). */
export function typeOf(schema: unknown, indent = '', depth = 0): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth > MAX_DEPTH) return 'unknown';
  const s = schema as Schema;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? 'never' : union(s.enum.map(literal));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) return union(options.map((option) => typeOf(option, indent, depth + 1)));
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) return s.allOf.map((part) => wrap(typeOf(part, indent, depth + 1))).join(' & ');
  const types = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : undefined;
  if (types) return union(types.map((type) => typeOfType(String(type), s, indent, depth)));
  if (s.properties !== undefined || s.additionalProperties !== undefined) return objectType(s, indent, depth);
  if (s.items !== undefined) return arrayType(s, indent, depth);
  return 'unknown';
}

function typeOfType(type: string, s: Schema, indent: string, depth: number): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(s, indent, depth);
    case 'object':
      return objectType(s, indent, depth);
    default:
      return 'unknown';
  }
}

function arrayType(s: Schema, indent: string, depth: number): string {
  if (Array.isArray(s.prefixItems)) return `[${s.prefixItems.map((item) => typeOf(item, indent, depth + 1)).join(', ')}]`;
  return `${wrap(typeOf(s.items, indent, depth + 1))}[]`;
}

function objectType(s: Schema, indent: string, depth: number): string {
  const properties = typeof s.properties === 'object' && s.properties !== null ? (s.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  const names = Object.keys(properties);
  const extra = s.additionalProperties;
  if (names.length === 0) return extra === false ? 'Record<string, never>' : `Record<string, ${typeof extra === 'object' ? typeOf(extra, indent, depth + 1) : 'unknown'}>`;
  const inner = `${indent}  `;
  const members = names.map((name) => {
    const property = properties[name];
    const description = typeof property === 'object' && property !== null ? (property as Schema).description : undefined;
    const optional = required.has(name) ? '' : '?';
    return `${docComment(typeof description === 'string' ? description : undefined, inner)}${inner}${propertyKey(name)}${optional}: ${typeOf(property, inner, depth + 1)};`;
  });
  // Extra keys a schema allows are left out of the type unless it names their type: an
  // index signature of `unknown` beside typed members would make every member `unknown`
  // to a reader, and a program only reads the members it knows.
  if (typeof extra === 'object' && extra !== null) members.push(`${inner}[key: string]: unknown;`);
  return `{\n${members.join('\n')}\n${indent}}`;
}

function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return 'unknown';
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  // One type needs no parentheses: the caller wraps it where it binds (inside `[]` or `&`).
  if (unique.length === 1) return unique[0] as string;
  return unique.map(wrap).join(' | ');
}

/**
 * Parenthesised unless a single name, literal or object type (each tokens spent in every
 * declaration a model reads), so that a union binds rightly inside `[]` or `&`.
 */
function wrap(type: string): string {
  return /^([\w$.]+|"(?:[^"\\]|\\.)*")(\[\])*$/.test(type) || oneObjectType(type) ? type : `(${type})`;
}

/**
 * Whether `type` is one object type as `objectType` writes it, possibly as an array: `{`,
 * members on lines of their own, and `}` (then `[]`s) alone at the indent of its last
 * line. A member's line never starts with `}` at that indent (members and their doc
 * comments are indented further), so a second `}` there means two types joined.
 */
function oneObjectType(type: string): boolean {
  const close = /\n( *)\}(\[\])*$/.exec(type);
  return type.startsWith('{\n') && close !== null && !type.slice(0, close.index).includes(`\n${close[1] ?? ''}}`);
}
