import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, lstat, realpath, rename, stat, unlink, writeFile, readFile, chmod } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Prompt, Tool } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import type { TSchema } from 'typebox';
import type { ConfiguredServers } from '../children/configured.js';
import { inferType } from '../children/registry.js';
import { HUB_ERROR_CODES, HubError, StartupError } from '../errors.js';
import type { Hub } from '../hub.js';
import { MAX_CONFIG_BYTES, parseConfig } from './load.js';
import { ServerEntry } from './schema.js';

/** The config file's text as read, and its version: what a save must still find to write. */
export interface ConfigText {
  /** Empty when there is no file yet. */
  text: string;
  /** sha256 of the text, hex. */
  version: string;
}

/** Why the hub would refuse a config text, in `hub check`'s words, with the server and key it names when it names one. */
export interface ConfigProblem {
  message: string;
  server?: string;
  /** The key it names (`args`, `env.PATH`), or `name` for the server's name itself. */
  key?: string;
}

/** The first problem, and every problem the checker found (each field error of the entry it stopped at, this one first). */
export type ConfigProblems = ConfigProblem & { errors: ConfigProblem[] };

/** A problem line with the server and key its words name ("server "x": key "args": expected ...", or the name itself). */
function problemNamed(message: string): ConfigProblem {
  const found = /server "([^"]+)": (?:key "([^"]+)"|(the name ))?/.exec(message);
  const key = found?.[2] ?? (found?.[3] !== undefined ? 'name' : undefined);
  return { message, ...(found?.[1] !== undefined && { server: found[1] }), ...(key !== undefined && { key }) };
}

/** What starting an entry apart from the hub found. */
export type EntryTrial =
  | { ok: true; serverInfo: { name: string; version: string } | undefined; revision: string | undefined; tools: Tool[]; prompts: Prompt[]; durationMs: number }
  | { ok: false; error: string; code: string | undefined; stderr: string[]; durationMs: number };

/** The schemas a server entry is checked with: the kernel's keys, each child type's, and the keys plugins add. */
export interface EntrySchemas {
  entry: TSchema;
  types: { type: string; schema: TSchema }[];
  serverKeys: { key: string; plugin: string; schema: TSchema }[];
}

/**
 * `hub.configFile`: the config file as the hub reads it, for a plugin that edits it (the
 * operator console). Texts are checked by the checkers the hub starts and reloads with
 * (`hub check`'s), and written atomically, only over the version the editor read.
 */
export interface ConfigFile {
  /** The file's absolute path; undefined when the config was handed to the hub as a value (embedding). */
  readonly path: string | undefined;
  read(): Promise<ConfigText>;
  /** Why the file cannot be written (a read-only file system, a ConfigMap, no permission, no file), or undefined. */
  unwritable(): Promise<string | undefined>;
  /** The first problem the hub would refuse `text` with at a reload (with, in `errors`, each field error of the entry it names), or undefined. */
  check(text: string): ConfigProblems | undefined;
  /** Writes `text` (temporary file and rename) if the file still reads as `version`; otherwise writes nothing and returns what it reads now. Reloads after a write. */
  write(text: string, version: string): Promise<{ written: true; reloaded: boolean } | { written: false; current: ConfigText }>;
  schemas(): EntrySchemas;
  /**
   * Starts `entry` apart from the running hub (not registered, not reachable by callers),
   * lists its tools and prompts and stops it; or says why it did not start, with the tail
   * of what it wrote to stderr.
   */
  trial(name: string, entry: ServerEntry, budgetMs: number): Promise<EntryTrial>;
}

/** Lines of a failed trial's stderr kept to show. */
const STDERR_TAIL = 20;

export function versionOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The kernel's `ConfigFile` over `file` (or none), checked against the running hub's servers. */
export function configFileOf(hub: Hub, servers: () => ConfiguredServers | undefined, file: string | undefined): ConfigFile {
  let writing: Promise<unknown> = Promise.resolve();
  const source = file ?? 'config';
  const read = async (): Promise<ConfigText> => {
    if (file === undefined) return { text: '', version: versionOf('') };
    let text: string;
    try {
      const info = await stat(file);
      if (info.size > MAX_CONFIG_BYTES) throw new HubError(HUB_ERROR_CODES.CONFIG_UNREADABLE, `${file}: it is ${info.size} bytes; a config file may have ${MAX_CONFIG_BYTES}`);
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      text = '';
    }
    return { text, version: versionOf(text) };
  };
  return {
    path: file,
    read,
    async unwritable() {
      if (file === undefined) return 'the config was handed to the hub as a value by the app that embeds it, not read from a file';
      const target = await realpath(file).catch(() => file);
      const folder = dirname(target);
      try {
        await access(folder, constants.W_OK);
        await access(target, constants.W_OK).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EROFS') return `${target} is on a read-only file system (a container image or a Kubernetes ConfigMap): change it where it comes from`;
        return `the hub's user cannot write ${target} (${code ?? (error as Error).message})`;
      }
      return undefined;
    },
    check(text) {
      try {
        const config = parseConfig(text, source, hub.env);
        servers()?.checkOnly(config, source);
        return undefined;
      } catch (error) {
        if (!(error instanceof StartupError)) throw error;
        const [first, ...rest] = error.problems.map(problemNamed);
        return { ...(first as ConfigProblem), errors: [first as ConfigProblem, ...rest] };
      }
    },
    write(text, version) {
      const run = writing.then(async () => {
        if (file === undefined) throw new HubError(HUB_ERROR_CODES.CONFIG_UNREADABLE, 'the config was not read from a file');
        const current = await read();
        if (current.version !== version) return { written: false as const, current };
        // Through a symlink the target is replaced, so the link (a ConfigMap's, a dotfile manager's) stays.
        const target = (await lstat(file).catch(() => undefined))?.isSymbolicLink() ? await realpath(file) : file;
        const mode = (await stat(target).catch(() => undefined))?.mode;
        const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
        try {
          await writeFile(temporary, text, { flag: 'wx', mode: 0o600 });
          if (mode !== undefined) await chmod(temporary, mode & 0o777);
          await rename(temporary, target);
        } catch (error) {
          await unlink(temporary).catch(() => undefined);
          throw error;
        }
        return { written: true as const, reloaded: await hub.reloadConfig('console') };
      });
      writing = run.catch(() => undefined);
      return run;
    },
    schemas() {
      return {
        entry: ServerEntry,
        types: hub.childTypes.names().flatMap((type) => {
          const childType = hub.childTypes.get(type);
          return childType && type !== 'in-process' ? [{ type, schema: childType.entrySchema }] : [];
        }),
        serverKeys: [...hub.serverKeys].map(([key, { schema, plugin }]) => ({ key, plugin, schema })),
      };
    },
    async trial(name, entry, budgetMs) {
      const started = Date.now();
      const lines: string[] = [];
      const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const stderrTail = () =>
        lines
          .flatMap((line) => {
            const record = JSON.parse(line) as { stream?: string; msg?: string };
            return record.stream === 'stderr' && typeof record.msg === 'string' ? [record.msg.replace(`${name}: `, '')] : [];
          })
          .slice(-STDERR_TAIL);
      const childType = hub.childTypes.get(inferType(entry));
      const failed = (error: unknown): EntryTrial => ({
        ok: false,
        error: (error as Error).message,
        code: error instanceof HubError ? error.code : undefined,
        stderr: stderrTail(),
        durationMs: Date.now() - started,
      });
      if (!childType) return failed(new HubError(HUB_ERROR_CODES.CHILD_TYPE_UNKNOWN, `no child type "${inferType(entry)}" is registered`));
      const expanded = parseConfig(JSON.stringify({ mcpServers: { [name]: entry } }), source, hub.env).mcpServers?.[name] ?? entry;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new HubError(HUB_ERROR_CODES.CHILD_NO_ANSWER, `no answer within ${budgetMs} ms`)), budgetMs);
      let closed: string | undefined;
      try {
        const connection = await Promise.race([
          childType.connect(expanded, {
            name,
            log,
            onClosed: (reason) => (closed = reason),
            signal: controller.signal,
            prior: undefined,
            wires: hub.children.wires,
            configDirectory: hub.configDirectory,
          }),
          new Promise<never>((_resolve, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true })),
        ]);
        try {
          const { client } = connection;
          const capabilities = client.getServerCapabilities();
          const tools = capabilities?.tools ? (await client.listTools()).tools : [];
          const prompts = capabilities?.prompts ? (await client.listPrompts()).prompts : [];
          const info = client.getServerVersion();
          return { ok: true, serverInfo: info && { name: info.name, version: info.version }, revision: undefined, tools, prompts, durationMs: Date.now() - started };
        } finally {
          await connection.close();
        }
      } catch (error) {
        return failed(closed !== undefined && !(error instanceof HubError) ? new Error(`${(error as Error).message} (${closed})`) : error);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
