import type { AuthInfo, CallToolResult, ClientCapabilities, InputRequiredResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { ChildRegistry } from './children/registry.js';
import type { HubConfig } from './config/schema.js';
import type { CallerRequest } from './mcp/caller-request.js';
import { QuestionRelay } from './mcp/elicitation.js';
import { OperatorLogin } from './operator/login.js';
import type { McpEra } from './mcp/era.js';
import { Drain } from './drain.js';
import { Registry } from './registry.js';
import type { HubSettings } from './settings.js';
import { openStoreLazily, type Store } from './store/index.js';
import { HUB_VERSION } from './version.js';

export type { McpEra } from './mcp/era.js';

/** What a meta-tool learns about the request it serves. */
export interface MetaToolContext {
  era: McpEra;
  /** The caller's request: progress, cancellation, the request's `_meta`. */
  request: CallerRequest;
  /** What a 2025 stdio session declared at `initialize`; on 2026-07-28 capabilities travel per request. */
  sessionCapabilities?: ClientCapabilities;
}

/** A tool of `/hub`; the meta-tools and diagnostics plugins register these. */
export interface MetaTool {
  name: string;
  description: string;
  inputSchema: TSchema;
  outputSchema?: TSchema;
  annotations?: ToolAnnotations;
  /** `args` has been checked against `inputSchema`. */
  call(args: Record<string, unknown>, context: MetaToolContext): Promise<CallToolResult | InputRequiredResult>;
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
  authenticator: RequestAuthenticator | undefined;
  /** First path segments taken by the kernel or a plugin (its `reservedPaths`); no server may use one as its name. */
  readonly reservedPaths = new Set(['hub', 'mcp', 'health', 'livez', 'readyz']);
  /** Server entry keys the plugins add (their `serverKeys`), with each key's schema and plugin. */
  readonly serverKeys = new Map<string, { schema: TSchema; plugin: string }>();
  #operatorLogin: OperatorLogin | undefined;

  /**
   * Re-reads the config file and applies it to the configured servers (what SIGHUP and a
   * change of the file do). False when it was refused, or when the config did not come
   * from a file; the running config then stays in force.
   */
  reloadConfig: (trigger: string) => Promise<boolean> = async (trigger) => {
    this.log.warn({ trigger }, 'nothing to reload: the config was not read from a file');
    return false;
  };

  constructor(
    readonly settings: HubSettings,
    readonly config: HubConfig,
    readonly log: FastifyBaseLogger,
    /** The folder relative paths in the config are resolved against. */
    readonly configDirectory: string,
    /** The environment the hub was started with (MONGODB_URL and plugin switches). */
    readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.children = new ChildRegistry(log, { name: 'mcp-hub', version: HUB_VERSION }, {
      dataPath: settings.dataPath,
      idleTimeoutMinutes: settings.idleTimeoutMinutes,
    });
    this.questions = new QuestionRelay(log);
    this.store = openStoreLazily({ dataPath: settings.dataPath, mongodbUrl: env.MONGODB_URL });
  }

  /** Opened on first use (a hub that never needs it creates no files); closed with the app. */
  readonly store: Store;

  /** The shutdown drain: in-flight MCP requests finish, new ones are refused. */
  readonly drain = new Drain();

  /** Relays children's questions to callers, and logs each drop once per client, server and reason. */
  readonly questions: QuestionRelay;

  /**
   * The operator's password and login throttle, for every page that asks a person who
   * operates the hub; created on first use.
   */
  get operatorLogin(): OperatorLogin {
    this.#operatorLogin ??= new OperatorLogin(this.settings.dataPath, this.env, this.store, this);
    return this.#operatorLogin;
  }

  /** Whether a plugin asked for the operator login: the serving hub then makes sure a password exists. */
  get operatorLoginUsed(): boolean {
    return this.#operatorLogin !== undefined;
  }

  get childTypes(): ChildRegistry['types'] {
    return this.children.types;
  }
}
