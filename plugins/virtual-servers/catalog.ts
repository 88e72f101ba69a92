import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type Prompt, type ReadResourceResult, type Resource } from '@modelcontextprotocol/server';
import type { Client } from '@modelcontextprotocol/client';
import type { ServerView, Servers } from '../../core/plugin/index.js';
import { finalName, promptSelectionsOf, resourceSelectionsOf, titled } from './check.js';
import type { VirtualEntry } from './entry.js';

/** Pages of an underlying server's list read at most, and items kept of it: what a caller's listing can make the kit remember is bounded. */
const MAX_PAGES = 20;
const MAX_ITEMS = 1_000;

/** A prompt as the kit lists it, and the prompt of the server it is drawn from. */
export interface OfferedPrompt {
  server: string;
  original: string;
  description: string | undefined;
  prompt: Prompt;
}

interface Lists {
  prompts?: Prompt[];
  resources?: Resource[];
}

/**
 * A virtual server's prompts and resources. The hub keeps no snapshot of a server's
 * prompts or resources (only of its tools), so a listing asks each server drawn on that is
 * up now, and remembers what it said; a server that is not up is listed from what it last
 * said while the hub ran, and not at all if it was never asked: listing never wakes one.
 * Getting a prompt or reading a resource wakes only the server it goes to. Named entries
 * route without a listing (`name`, or the URI); `*` entries route by what was listed.
 */
export class Catalog {
  readonly #remembered = new Map<string, Lists>();
  readonly #servers: Pick<Servers, 'get'>;
  readonly #problem: (message: string) => void;

  constructor(servers: Pick<Servers, 'get'>, problem: (message: string) => void) {
    this.#servers = servers;
    this.#problem = problem;
  }

  /** The prompts the kit lists, by the name they take here, with where each comes from. */
  async prompts(name: string, entry: VirtualEntry): Promise<Map<string, OfferedPrompt>> {
    const offered = new Map<string, OfferedPrompt>();
    const asked = new Set<string>();
    for (const [index, selection] of promptSelectionsOf(entry).entries()) {
      const listed = await this.#listed(selection.server, 'prompts', asked);
      if (listed === undefined) continue;
      const chosen = selection.prompt === '*' ? listed : listed.filter((prompt) => prompt.name === selection.prompt);
      if (chosen.length === 0 && selection.prompt !== '*')
        this.#problem(`virtual server "${name}": prompts[${index}]: server "${selection.server}" lists no prompt "${selection.prompt}" (any more): left out`);
      for (const prompt of chosen) {
        const final = finalName(selection, prompt.name);
        if (offered.has(final)) {
          this.#problem(`virtual server "${name}": prompts[${index}]: a second prompt would be named "${final}" (${selection.server}/${prompt.name}): left out`);
          continue;
        }
        offered.set(final, {
          server: selection.server,
          original: prompt.name,
          description: selection.description,
          prompt: { ...titled(prompt, selection), name: final, ...(selection.description !== undefined && { description: selection.description }) },
        });
      }
    }
    return offered;
  }

  /** The resources the kit lists, by URI, with the server each comes from. */
  async resources(name: string, entry: VirtualEntry): Promise<Map<string, { server: string; resource: Resource }>> {
    const offered = new Map<string, { server: string; resource: Resource }>();
    const asked = new Set<string>();
    for (const [index, selection] of resourceSelectionsOf(entry).entries()) {
      const listed = await this.#listed(selection.server, 'resources', asked);
      if (listed === undefined) continue;
      const chosen = selection.resource === '*' ? listed : listed.filter((resource) => resource.uri === selection.resource);
      if (chosen.length === 0 && selection.resource !== '*')
        this.#problem(`virtual server "${name}": resources[${index}]: server "${selection.server}" lists no resource "${selection.resource}" (any more): left out`);
      for (const resource of chosen) {
        if (offered.has(resource.uri)) {
          this.#problem(`virtual server "${name}": resources[${index}]: "${resource.uri}" is selected a second time (from ${selection.server}): left out`);
          continue;
        }
        const shown = { ...resource, name: finalName(selection, resource.name), ...(selection.description !== undefined && { description: selection.description }) };
        offered.set(resource.uri, { server: selection.server, resource: shown });
      }
    }
    return offered;
  }

  /** The prompt `prompt` of the virtual server, got from the server it is drawn from (woken if need be). */
  async getPrompt(name: string, entry: VirtualEntry, prompt: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
    const named = promptSelectionsOf(entry).find((selection) => selection.prompt !== '*' && finalName(selection, selection.prompt) === prompt);
    const route = named ? { server: named.server, original: named.prompt, description: named.description } : (await this.prompts(name, entry)).get(prompt);
    if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${prompt} not found`);
    const result = await this.#view(route.server).withClient((client) => client.getPrompt({ name: route.original, ...(args !== undefined && { arguments: args }) }));
    return route.description === undefined ? result : { ...result, description: route.description };
  }

  /** The resource at `uri`, read from the server it is drawn from (woken if need be). */
  async readResource(name: string, entry: VirtualEntry, uri: string): Promise<ReadResourceResult> {
    const server = resourceSelectionsOf(entry).find((selection) => selection.resource === uri)?.server ?? (await this.resources(name, entry)).get(uri)?.server;
    if (server === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri}`);
    return this.#view(server).withClient((client) => client.readResource({ uri }));
  }

  /** A server's route out of the kit was taken away (a reload): what it said is forgotten. */
  forget(server: string): void {
    this.#remembered.delete(server);
  }

  #view(server: string): ServerView {
    const view = this.#servers.get(server);
    if (!view) throw new ProtocolError(ProtocolErrorCode.InternalError, `server "${server}" is not configured (any more)`);
    return view;
  }

  /**
   * What `server` lists of `kind`: asked now when it is up (it is not woken: a server that
   * went to sleep since is listed from memory), else what it said last; undefined when it
   * was never asked or offers no such list. Both lists are read together, so that a
   * listing of prompts leaves the resources remembered too (and the other way round).
   * `asked`: the servers this listing asked already (several entries may draw on one).
   */
  async #listed<K extends keyof Lists>(server: string, kind: K, asked: Set<string>): Promise<Lists[K]> {
    const view = this.#servers.get(server);
    if (view?.status === 'up' && !asked.has(server)) {
      asked.add(server);
      const read: Lists = {};
      for (const which of ['prompts', 'resources'] as const) {
        if (!(which === 'prompts' ? view.capabilities?.prompts : view.capabilities?.resources)) continue;
        const items = await view.withClient((client) => readAll(client, which)).catch(() => undefined);
        if (items !== undefined) (read as Record<string, unknown>)[which] = items;
      }
      this.#remembered.set(server, { ...this.#remembered.get(server), ...read });
    }
    return this.#remembered.get(server)?.[kind];
  }
}

/** Every page of a list, within the bounds above; undefined past them. */
async function readAll<K extends keyof Lists>(client: Client, kind: K): Promise<Lists[K]> {
  const items: Array<Prompt | Resource> = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const params = cursor === undefined ? undefined : { cursor };
    const answer =
      kind === 'prompts'
        ? await client.listPrompts(params).then((listed) => ({ items: listed.prompts, next: listed.nextCursor }))
        : await client.listResources(params).then((listed) => ({ items: listed.resources, next: listed.nextCursor }));
    items.push(...answer.items);
    if (items.length > MAX_ITEMS) return undefined;
    cursor = answer.next || undefined;
    if (cursor === undefined) return items as Lists[K];
  }
  return undefined;
}
