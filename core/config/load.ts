import { parse as parseTolerantly, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { expandConfig } from './expand.js';
import { adoptOtherClients, keepAdopted } from './other-clients.js';
import { HubConfig } from './schema.js';
import { readConfigText } from './read.js';
import { pointerToPath, schemaProblems } from './schema-errors.js';

export interface LoadedConfig {
  config: HubConfig;
  /** Absolute path of the file, or undefined when the built-in defaults are used. */
  file: string | undefined;
}

export { MAX_CONFIG_BYTES } from './read.js';

/** Reads the config file; a missing file means the built-in defaults. */
export async function loadConfigFile(file: string, env: NodeJS.ProcessEnv): Promise<LoadedConfig> {
  const text = await readConfigText(file);
  return text === undefined ? { config: {}, file: undefined } : { config: parseConfig(text, file, env), file };
}

export function parseConfig(text: string, source: string, env: NodeJS.ProcessEnv): HubConfig {
  let raw: unknown;
  // Editors on some systems start the file with a byte-order mark, which JSON does not allow.
  const json = text.replace(/^\uFEFF/, '');
  try {
    raw = JSON.parse(json);
  } catch (error) {
    const { line, column, problem } = locateJsonError(json, (error as Error).message);
    throw new StartupError(`${source}:${line}:${column}: the config file is not valid JSON (${problem})`, { code: HUB_ERROR_CODES.CONFIG_INVALID, cause: error });
  }
  return checkConfig(raw, source, env);
}

/** Validates an already-parsed config (from a file or handed to the plugin when embedding). */
export function checkConfig(given: unknown, source: string, env: NodeJS.ProcessEnv): HubConfig {
  const raw = adoptOtherClients(given, source);
  const problems = schemaProblems(HubConfig, raw).map((problem) => {
    const path = pointerToPath(problem.path);
    const segments = path.split('.');
    if (segments[0] === 'mcpServers' && segments.length >= 2) {
      const [, server, ...rest] = segments;
      return `${source}: server "${server}": key "${rest.join('.') || '(entry)'}": expected ${problem.expected}`;
    }
    return `${source}: ${path ? `key "${path}"` : 'the config'}: expected ${problem.expected}`;
  });
  const [first] = problems;
  if (first !== undefined) throw new StartupError(first, { code: HUB_ERROR_CODES.CONFIG_INVALID, problems });
  const config = expandConfig(raw as HubConfig, env, source);
  keepAdopted(raw as object, config);
  return config;
}

/** What jsonc-parser's error codes mean, in an operator's words. */
const JSON_PROBLEMS: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: 'not a JSON value: strings need double quotes; true, false and null are lower case',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected a colon after the property name',
  CommaExpected: 'expected a comma before this',
  CloseBraceExpected: 'expected } to close the object',
  CloseBracketExpected: 'expected ] to close the array',
  EndOfFileExpected: 'more text after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a malformed number',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'a malformed escape in a string',
  InvalidCharacter: 'a control character in a string (write \\n or \\t)',
};

/**
 * Where the JSON goes wrong, 1-based. V8 often names no position (or the end of the
 * text), so jsonc-parser's tolerant scanner finds the first error; a trailing comma,
 * the commonest mistake in hand-edited config, is reported at the comma itself.
 */
function locateJsonError(text: string, v8Message: string): { line: number; column: number; problem: string } {
  const errors: ParseError[] = [];
  parseTolerantly(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return { ...lineAndColumn(text, text.length), problem: v8Message };
  const before = text.slice(0, first.offset).trimEnd();
  if (before.endsWith(',') && /^\s*[}\]]/.test(text.slice(first.offset))) {
    return { ...lineAndColumn(text, before.length - 1), problem: 'a trailing comma: JSON allows none after the last item' };
  }
  return { ...lineAndColumn(text, first.offset), problem: JSON_PROBLEMS[printParseErrorCode(first.error)] ?? v8Message };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
