import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { ChildRegistry } from './children/registry.js';
import type { HubConfig } from './config/schema.js';
import { Registry } from './registry.js';
import type { HubSettings } from './settings.js';
import { HUB_VERSION } from './version.js';

/** One MCP revision the endpoints can speak; the revision plugins register these. */
export interface McpEra {
  revision: string;
  era: 'modern' | 'legacy';
}

/** A tool of `/hub`; the meta-tools and diagnostics plugins register these. */
export interface MetaTool {
  name: string;
  description: string;
  inputSchema: TSchema;
  outputSchema?: TSchema;
  annotations?: ToolAnnotations;
  call(args: Record<string, unknown>, context: unknown): Promise<CallToolResult>;
}

/** A `hub-admin` subcommand group (`clients`, `tokens`, ...). */
export interface AdminCommand {
  name: string;
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

/**
 * Checks the caller of an MCP request. The oauth-as plugin provides one; without it the
 * endpoints are open (allowed only on a loopback bind). `resource` is the absolute URL
 * of the endpoint the request arrived on (RFC 8707 audience).
 */
export interface RequestAuthenticator {
  /** The caller, or undefined when a 401/403 was already sent on `reply`. */
  authenticate(request: FastifyRequest, reply: FastifyReply, resource: string): Promise<AuthInfo | undefined>;
}

/**
 * What the kernel hands every plugin: the settings, the config and the registries that
 * plugins fill and read. It holds no protocol, OAuth or child-type knowledge of its own.
 */
export class Hub {
  readonly version = HUB_VERSION;
  readonly children: ChildRegistry;
  readonly eras = new Registry<McpEra>('MCP era');
  readonly metaTools = new Registry<MetaTool>('meta-tool');
  readonly adminCommands = new Registry<AdminCommand>('admin command');
  /** First path segments taken by the hub or a plugin; no server may use one as its name. */
  authenticator: RequestAuthenticator | undefined;
  readonly reservedPaths = new Set(['hub', 'mcp', 'register', 'revoke', 'jwks', 'authorize', 'token', 'health', '.well-known']);

  constructor(
    readonly settings: HubSettings,
    readonly config: HubConfig,
    readonly log: FastifyBaseLogger,
    /** The folder relative paths in the config are resolved against. */
    readonly configDirectory: string,
  ) {
    this.children = new ChildRegistry(log, { name: 'mcp-hub', version: HUB_VERSION });
  }

  get childTypes(): ChildRegistry['types'] {
    return this.children.types;
  }
}
