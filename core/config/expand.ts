import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import { readSecretFile } from './secret-files.js';

/** Every `${...}` of a string: each is expanded or refused, none is ever sent as written. */
const REFERENCE = /\$\{([^}]*)\}/g;
/** `NAME`, `NAME:-default`, and Cursor's and VS Code's `env:NAME` for the same. */
const VARIABLE = /^(env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/**
 * What editors (VS Code, Cursor) fill in themselves, which a hub has no value for: when
 * the environment does not hold the name either, the entry is refused with what to write.
 */
const EDITOR_VARIABLES: Record<string, string> = {
  userHome: 'write ${HOME}',
  workspaceFolder: 'write the absolute path of the folder',
  workspaceRoot: 'write the absolute path of the folder',
  workspaceFolderBasename: "write the folder's name",
  pathSeparator: 'write /',
  cwd: 'write the absolute path (or set the entry\'s "cwd")',
  execPath: 'write the path of the program',
  file: 'write the path of the file',
  fileDirname: 'write the path of the folder',
  relativeFile: 'write the path of the file',
};

/** A variable to read, or why a `${...}` cannot be expanded (`problem(where)`, with what to write instead). */
type Reference = { name: string; fallback: string | undefined } | { problem: (where: string) => string };

function reference(inner: string, env: NodeJS.ProcessEnv): Reference {
  const refused = (why: string) => ({ problem: (where: string) => `\${${inner}} (used at ${where}) ${why}` });
  const variable = VARIABLE.exec(inner);
  if (variable) {
    const [, prefix, name = '', fallback] = variable;
    const editor = prefix === undefined && fallback === undefined ? EDITOR_VARIABLES[name] : undefined;
    if (editor !== undefined && isUnset(name, env)) return refused(`is an editor's variable (VS Code, Cursor) the hub has no value for; ${editor}`);
    return { name, fallback };
  }
  if (inner === '/') return refused("is an editor's variable (VS Code, Cursor) the hub has no value for; write /");
  const editor = /^([A-Za-z]+):([\s\S]*)$/.exec(inner);
  if (editor?.[1] === 'input') {
    return refused("is a VS Code prompt, which the hub cannot show; write ${NAME} and set NAME (or NAME_FILE) in the hub's environment");
  }
  if (editor && editor[1] !== 'env') {
    return refused("is an editor's variable (VS Code, Cursor) the hub has no value for; write the value, or ${NAME} and set NAME in the hub's environment");
  }
  return refused('is not a variable the hub expands; write ${NAME}, ${NAME:-default} or ${env:NAME} (NAME of letters, digits and _)');
}

function isUnset(name: string, env: NodeJS.ProcessEnv): boolean {
  return (env[name] === undefined || env[name] === '') && !env[`${name}_FILE`]?.trim();
}

/**
 * Expands `${VAR}` and `${VAR:-default}` in every string of the config, as Claude Code
 * does, and `${env:VAR}` as Cursor and VS Code write it, so entries copy 1:1; an unset
 * `VAR` is read from the file `VAR_FILE` names, when set (a container's secret mount), by
 * the rules of core/config/secret-files.ts. A variable that is unset and has no default, or a
 * `${...}` the hub cannot expand (an editor's `${input:...}`, `${workspaceFolder}`), stops
 * start-up: silently sending an empty bearer token or a literal `${...}` upstream would be
 * worse. (A server entry's variables are `expandConfig`'s: there such a reference takes
 * down only that server.)
 */
export function expandEnvironment<T>(value: T, env: NodeJS.ProcessEnv, source: string, path = ''): T {
  if (typeof value === 'string') {
    return value.replace(REFERENCE, (_match, inner: string) => {
      const found = reference(inner, env);
      const where = path || 'the top level';
      if ('problem' in found) throw new StartupError(`${source}: ${found.problem(where)}`, { code: HUB_ERROR_CODES.CONFIG_INVALID });
      const { name, fallback } = found;
      const resolved = env[name];
      if (resolved !== undefined && resolved !== '') return resolved;
      // The secret-file convention: an unset NAME may come from the file NAME_FILE names.
      const file = env[`${name}_FILE`]?.trim();
      if (file) return readSecretFile(`${name}_FILE`, file);
      if (fallback !== undefined) return fallback;
      throw new StartupError(`${source}: environment variable ${name} is not set (used at ${where}); set it or write \${${name}:-default}`, { code: HUB_ERROR_CODES.CONFIG_INVALID });
    }) as T;
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => expandEnvironment(item, env, source, `${path}[${index}]`)) as T;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandEnvironment(item, env, source, path ? `${path}.${key}` : key)])) as T;
  }
  return value;
}

/**
 * Why `value` cannot be expanded, in an operator's words, naming where (its first
 * variable that is unset with no default, or a `${...}` the hub cannot expand);
 * undefined when every reference resolves.
 */
export function variableProblem(value: unknown, env: NodeJS.ProcessEnv, path: string): string | undefined {
  if (typeof value === 'string') {
    for (const [, inner = ''] of value.matchAll(REFERENCE)) {
      const found = reference(inner, env);
      if ('problem' in found) return `${found.problem(path)}, then reload`;
      if (isUnset(found.name, env) && found.fallback === undefined) {
        return `environment variable ${found.name} is not set (used at ${path}); set it or write \${${found.name}:-default}, then reload`;
      }
    }
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = variableProblem(item, env, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = variableProblem(item, env, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * `expandEnvironment` for a whole config, except that a server entry naming an unset
 * variable, or a `${...}` the hub cannot expand, is left as written (never sent anywhere:
 * that server is kept down, saying why, see `ConfiguredServers.check`) instead of
 * stopping the hub and every other server; so `hub-admin` never needs a server's secrets
 * either.
 */
export function expandConfig<T extends { mcpServers?: Record<string, unknown> }>(config: T, env: NodeJS.ProcessEnv, source: string): T {
  const { mcpServers, ...rest } = config;
  const expanded = expandEnvironment<Omit<T, 'mcpServers'>>(rest, env, source);
  if (mcpServers === undefined) return expanded as T;
  const servers = Object.fromEntries(
    Object.entries(mcpServers).map(([name, entry]) => {
      const path = `mcpServers.${name}`;
      return [name, variableProblem(entry, env, path) ? entry : expandEnvironment(entry, env, source, path)];
    }),
  );
  return { ...expanded, mcpServers: servers } as T;
}
