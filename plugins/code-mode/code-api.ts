import type { Tool } from '@modelcontextprotocol/server';
import { didYouMean, listed } from './close-matches.js';
import { docComment, identifierFor, pascalCase, propertyKey, typeOf } from './declarations.js';
import { CodeApiInput } from './schemas.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { type MetaTool, type MetaToolContext, offeredOnHub, type ServerView, toolError, unknownServerMessage, unknownToolMessage } from '../../core/plugin/meta-tool.js';

const HEADER = `// Tools you can call from run_code, as servers.<server>.<tool>(args): each returns a promise of
// the tool's structured result where it declares an output type, else of its text; a tool
// error rejects with its text. Names that are not identifiers take brackets:
// servers["my-server"]["get-sum"]({ a: 1 }). console.log prints into run_code's output.
`;

const CONSOLE = `declare const console: {
  log(...values: unknown[]): void;
  info(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
  debug(...values: unknown[]): void;
};
`;

/** One server's part of the API, and the tool list (by identity) it was made from. */
interface CachedPart {
  tools: readonly Tool[];
  identifier: string;
  namespace: string;
  member: string;
}

/**
 * `get_code_api`: TypeScript declarations of the tools the caller can reach, one namespace
 * per server. Each server's part is made once per tool list and revision (the output
 * types are those the caller's revision delivers) and reused while the list is the same
 * objects, so that the answer is the same text every time until a list changes.
 */
export function getCodeApi(hub: PluginHub): MetaTool {
  const cache = new Map<string, CachedPart>();
  hub.servers.onRemoved((name) => {
    for (const key of cache.keys()) if (key.startsWith(`${name}\n`)) cache.delete(key);
  });

  const partOf = (child: ServerView, identifier: string, context: MetaToolContext): CachedPart => {
    const key = `${child.name}\n${context.revision.revision}`;
    const tools = child.tools;
    const cached = cache.get(key);
    if (cached && cached.identifier === identifier && sameTools(cached.tools, tools)) return cached;
    const made = { tools, identifier, ...serverPart(child, identifier, tools, context) };
    cache.set(key, made);
    return made;
  };

  return {
    name: 'get_code_api',
    description:
      'Returns TypeScript declarations of the tools you can call from run_code (servers.<server>.<tool>(args)), one namespace per server, with their argument and result types. Ask for only the tools you need ("tools": ["server/tool"]) or servers; then write a program for run_code.',
    inputSchema: CodeApiInput,
    annotations: { title: 'Get code API', readOnlyHint: true },
    async call(args, context) {
      const { servers: named, tools: namedTools } = args as CodeApiInput;
      const reachable = hub.servers.list().filter((child) => offeredOnHub(child, context.request));
      const reachableNames = reachable.map((child) => child.name);
      const unknownServer = (name: string) => toolError(`${unknownServerMessage(name)}${didYouMean(name, reachableNames)} The servers you can reach: ${listed(reachableNames)}.`);
      // Servers asked for whole, and the tools asked for one by one of the others.
      const whole = new Set(named ?? (namedTools === undefined ? reachableNames : []));
      const single = new Map<string, string[]>();
      for (const name of named ?? []) if (!reachableNames.includes(name)) return unknownServer(name);
      for (const qualified of namedTools ?? []) {
        const slash = qualified.indexOf('/');
        if (slash <= 0) return toolError(`"${qualified}" is not a tool name as get_code_api takes it: "server/tool", for example "${reachableNames[0] ?? 'server'}/tool".`);
        const server = qualified.slice(0, slash);
        if (!reachableNames.includes(server)) return unknownServer(server);
        if (!whole.has(server)) single.set(server, [...(single.get(server) ?? []), qualified.slice(slash + 1)]);
      }
      const chosen = reachable.filter((child) => whole.has(child.name) || single.has(child.name));
      const parts: string[] = [];
      const members: string[] = [];
      const taken = new Set<string>();
      for (const child of chosen) {
        if (!child.toolsKnown && (named !== undefined || namedTools !== undefined)) {
          try {
            await child.ensureToolsKnown();
          } catch (error) {
            return toolError(`The tools of server "${child.name}" are not known: it has never started and it cannot start now (${(error as Error).message}).`);
          }
        }
        await child.recheckWithheld();
        const identifier = unique(identifierFor(child.name), taken);
        const wanted = single.get(child.name);
        let part: { namespace: string; member: string };
        if (wanted === undefined) part = partOf(child, identifier, context);
        else {
          const tools = child.tools;
          const toolNames = tools.map((tool) => tool.name);
          const missing = wanted.find((name) => !toolNames.includes(name));
          if (missing !== undefined) return toolError(`${unknownToolMessage(child.name, missing)}${didYouMean(missing, toolNames)} Its tools: ${listed(toolNames)}.`);
          part = serverPart(
            child,
            identifier,
            tools.filter((tool) => wanted.includes(tool.name)),
            context,
          );
        }
        parts.push(part.namespace);
        members.push(part.member);
      }
      const text = `${HEADER}\n${parts.join('\n')}\ndeclare const servers: {\n${members.join('\n')}\n};\n\n${CONSOLE}`;
      return { content: [{ type: 'text', text }] };
    },
  };
}

function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  return a.length === b.length && a.every((tool, index) => tool === b[index]);
}

function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let index = 2; taken.has(candidate); index++) candidate = `${name}_${index}`;
  taken.add(candidate);
  return candidate;
}

/** A server's namespace of argument and result types, and its member of `servers`. */
function serverPart(child: ServerView, identifier: string, tools: readonly Tool[], context: MetaToolContext): { namespace: string; member: string } {
  const typeNames = new Set<string>();
  const types: string[] = [];
  const methods: string[] = [];
  for (const tool of tools) {
    const presented = context.revision.presentTool(tool);
    const stem = unique(pascalCase(tool.name), typeNames);
    const input = presented.inputSchema as { required?: unknown } | undefined;
    const argsOptional = !Array.isArray(input?.required) || input.required.length === 0;
    types.push(`  export type ${stem}Input = ${typeOf(presented.inputSchema, '  ')};`);
    types.push(`  export type ${stem}Output = ${presented.outputSchema === undefined ? 'string' : typeOf(presented.outputSchema, '  ')};`);
    methods.push(
      `${docComment(presented.description ?? tool.description, '    ')}    ${propertyKey(tool.name)}(args${argsOptional ? '?' : ''}: ${identifier}.${stem}Input): Promise<${identifier}.${stem}Output>;`,
    );
  }
  const unknownTools = child.toolsKnown ? '' : '  // Its tools are not known yet (it never started): name it in get_code_api\'s "servers" to start it.\n';
  const namespace = `${docComment(`Server "${child.name}": ${child.description}`, '')}declare namespace ${identifier} {\n${unknownTools}${types.join('\n')}\n}\n`;
  const member = `${docComment(child.description, '  ')}  readonly ${propertyKey(child.name)}: {\n${methods.join('\n')}\n  };`;
  return { namespace, member };
}
