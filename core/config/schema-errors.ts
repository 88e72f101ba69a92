import type { TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import Value from 'typebox/value';
import { nearestKey, propertyNames } from './key-names.js';

interface SchemaProblem {
  /** JSON pointer into the checked value, `''` for the root. */
  path: string;
  expected: string;
}

type SchemaError = ReturnType<typeof Value.Errors>[number];

/**
 * The one most useful problem of a value against a schema, in words. TypeBox reports
 * every failing branch of a union; an operator needs the one line that says what was
 * expected at which path, so union branches are folded into "one of ...".
 */
export function firstSchemaProblem(schema: TSchema, value: unknown): SchemaProblem | undefined {
  if (validatorOf(schema).Check(value)) return undefined;
  const errors = [...Value.Errors(schema, value)];
  return errors.length === 0 ? undefined : foldedProblem(schema, errors);
}

/**
 * Every problem of a value against a schema, one per field, each in `firstSchemaProblem`'s
 * words (folded the same way), in the order TypeBox finds them; the one `firstSchemaProblem`
 * names comes first, so a one-line report keeps its line. A problem of a value that holds a
 * problem of its own (a union that failed because a field of it did) is left out: the
 * field's says more.
 */
export function schemaProblems(schema: TSchema, value: unknown): SchemaProblem[] {
  if (validatorOf(schema).Check(value)) return [];
  const errors = [...Value.Errors(schema, value)];
  const first = errors.length === 0 ? undefined : foldedProblem(schema, errors);
  if (first === undefined) return [];
  const byField = new Map<string, SchemaError[]>();
  for (const error of errors) {
    // A required error may name several missing keys: each is a field of its own.
    const missing = error.keyword === 'required' ? error.params.requiredProperties : [undefined];
    for (const key of missing) {
      const field = key === undefined ? error.instancePath : `${error.instancePath}/${key}`;
      const one = key === undefined ? error : { ...error, params: { ...error.params, requiredProperties: [key] } };
      byField.set(field, [...(byField.get(field) ?? []), one as SchemaError]);
    }
  }
  const fields = [...byField.keys()];
  const problems = fields.filter((field) => !fields.some((other) => other !== field && other.startsWith(`${field}/`))).map((field) => foldedProblem(schema, byField.get(field) as SchemaError[]));
  const rest = problems.filter((problem) => problem.path !== first.path || problem.expected !== first.expected);
  return [first, ...rest];
}

/** The problem a set of TypeBox errors says, folded into one line (the deepest path; a union's constants as "one of"). */
function foldedProblem(schema: TSchema, errors: SchemaError[]): SchemaProblem {
  const deepest = errors.reduce((best, error) => (depth(error.instancePath) > depth(best.instancePath) ? error : best));
  const atPath = errors.filter((error) => error.instancePath === deepest.instancePath);
  const constants = atPath.filter((error) => error.keyword === 'const').map((error) => JSON.stringify(error.params.allowedValue));
  if (constants.length > 0) return { path: deepest.instancePath, expected: `one of ${constants.join(', ')}` };
  const primary = atPath.find((error) => error.keyword !== 'anyOf' && error.keyword !== 'boolean') ?? deepest;
  if (primary.keyword === 'boolean' && primary.schemaPath.endsWith('/additionalProperties')) return unknownKey(schema, primary.schemaPath, primary.instancePath);
  if (primary.keyword === 'required') {
    const [missing] = primary.params.requiredProperties;
    return { path: `${primary.instancePath}/${missing}`, expected: 'a value (the key is required)' };
  }
  return { path: primary.instancePath, expected: describe(primary.keyword, primary.params, primary.message) };
}

/**
 * A compiled check per schema (the same verdict as `Value.Errors` finding none, at a
 * fraction of the cost on the hot path: each meta-tool call checks its arguments, and
 * almost every value is valid), and whether it declares a default to fill in. Schemas
 * live as long as the tools that declare them.
 */
const compiled = new WeakMap<TSchema, { validator: Validator; declaresDefaults: boolean }>();

function compiledOf(schema: TSchema): { validator: Validator; declaresDefaults: boolean } {
  let found = compiled.get(schema);
  if (!found) {
    found = { validator: Compile(schema), declaresDefaults: hasDefaultKey(schema) };
    compiled.set(schema, found);
  }
  return found;
}

function validatorOf(schema: TSchema): Validator {
  return compiledOf(schema).validator;
}

/**
 * `value` with the schema's defaults filled in. Filling writes into the value, so it is
 * done on a copy, and only when the schema declares a default (a meta-tool's arguments,
 * on every call, mostly do not).
 */
export function withSchemaDefaults(schema: TSchema, value: unknown): unknown {
  return compiledOf(schema).declaresDefaults ? Value.Default(schema, structuredClone(value)) : value;
}

/** A `default` key anywhere (a property named so counts too: a copy too many is harmless). */
function hasDefaultKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (!Array.isArray(value) && 'default' in value) return true;
  return Object.values(value).some(hasDefaultKey);
}

/**
 * A key a closed object does not declare: the problem names it and the declared key it is
 * closest to (a misspelt option), or the declared keys when none is close.
 */
function unknownKey(schema: TSchema, schemaPath: string, instancePath: string): SchemaProblem {
  const object = schemaAt(schema, schemaPath.replace(/^#/, '').replace(/\/additionalProperties$/, ''));
  const known = object === undefined ? [] : propertyNames(object);
  const key = (instancePath.split('/').pop() ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
  const near = nearestKey(key, known);
  const hint = near !== undefined ? `did you mean "${near}"?` : known.length > 0 ? `the known ones are ${known.map((name) => `"${name}"`).join(', ')}` : 'none is known';
  return { path: instancePath, expected: `no such key (${hint})` };
}

/** The subschema a JSON pointer into `schema` names, when it is there. */
function schemaAt(schema: TSchema, pointer: string): TSchema | undefined {
  let node: unknown = schema;
  for (const segment of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return typeof node === 'object' && node !== null ? node : undefined;
}

function depth(pointer: string): number {
  return pointer === '' ? 0 : pointer.split('/').length;
}

function describe(keyword: string, params: unknown, message: string): string {
  const p = params as Record<string, unknown>;
  switch (keyword) {
    case 'type':
      return `a value of type ${String(p.type)}`;
    case 'additionalProperties':
      return `no key(s) other than the documented ones (found ${(p.additionalProperties as string[]).join(', ')})`;
    case 'pattern':
      return `a string matching ${String(p.pattern)}`;
    default:
      return message.replace(/^must /, 'a value that must ');
  }
}

/** `/a/b/0` → `a.b[0]`, the way people write paths in a JSON file. */
export function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}
