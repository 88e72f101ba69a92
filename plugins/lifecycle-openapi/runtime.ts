import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ApiClient } from './api-client.js';
import { cut } from './answer.js';
import type { LifecycleOpenApiOptions, OpenApiEntry } from './entry.js';
import { selectOperations, type OperationSet } from './operations.js';
import { apiServerFactory, compiledOrLenient } from './server.js';
import { loadSpec, type LoadedSpec } from './spec-source.js';
import { operationTool, type OperationTool } from './tools.js';
import { connectInProcess, type ChildConnection, type ConnectContext, type UpstreamAuth } from '../../core/plugin/child-type.js';

export interface RuntimeContext {
  options: LifecycleOpenApiOptions;
  configDirectory: string;
  version: string;
  upstreamAuth: () => UpstreamAuth | undefined;
}

/** What a connect or a check made of an entry's document. */
export interface ApiDescription {
  spec: LoadedSpec;
  set: OperationSet;
  tools: OperationTool[];
}

/**
 * Everything of the `openapi` type that needs the parser, imported by the first connect or
 * check of an `openapi` server. Documents are cached per server until a config reload.
 */
export class OpenApiRuntime {
  readonly #specs = new Map<string, { spec: string; loaded: Promise<LoadedSpec> }>();

  constructor(private readonly context: RuntimeContext) {}

  /** Drops the cached documents: the next connect reads them again. */
  forget(): void {
    this.#specs.clear();
  }

  async describe(name: string, entry: OpenApiEntry): Promise<ApiDescription> {
    const spec = await this.#spec(name, entry.spec);
    const set = selectOperations(spec, {
      baseUrl: entry.baseUrl,
      operations: entry.operations,
      narrowedByAllowTools: Array.isArray((entry as { allowTools?: unknown }).allowTools),
      maxOperations: this.context.options.maxOperations,
    });
    return { spec, set, tools: set.operations.map((operation) => operationTool(operation, spec.version, entry.arguments ?? 'flat')) };
  }

  async connect(entry: OpenApiEntry, context: ConnectContext): Promise<ChildConnection> {
    const { options } = this.context;
    const { spec, set, tools } = await this.describe(context.name, entry);
    for (const refused of set.refused) context.log.warn({ server: context.name, operation: refused.label }, `server "${context.name}": ${refused.label} is not offered: ${refused.reason}`);
    const api = await ApiClient.open({
      server: context.name,
      requestTimeoutMs: options.requestTimeoutMs,
      maxAnswerBytes: options.maxAnswerBytes,
      maxTextBytes: options.maxTextBytes,
      auth: this.context.upstreamAuth()?.forServer(context.name, entry),
      base: set.base,
      outputValidator: outputValidators(),
      headerValues: Object.values(entry.headers ?? {}),
    });
    try {
      await api.probe(context.signal);
      const info = spec.document.info;
      const connection = await connectInProcess(
        apiServerFactory({
          info: { name: context.name, version: info.version, ...(info.title && { title: info.title }) },
          instructions: info.description ? cut(info.description, 2000) : undefined,
          tools,
          api,
          headers: entry.headers ?? {},
          ajv: newAjv(),
        }),
        context,
        { name: 'mcp-hub', version: this.context.version },
      );
      return {
        client: connection.client,
        async close() {
          await connection.close();
          await api.close();
        },
      };
    } catch (error) {
      await api.close();
      throw error;
    }
  }

  /** `hub check`: the document read and validated, the tools made, without a request to the API. */
  async check(entry: OpenApiEntry): Promise<{ ok: boolean; detail: string }> {
    // Read afresh, and not kept: a check looks at the document as it is now.
    const key = `\0check ${entry.spec}`;
    this.#specs.delete(key);
    const { spec, set, tools } = await this.describe(key, entry).finally(() => this.#specs.delete(key));
    const ajv = newAjv();
    for (const { tool } of tools) ajv.compile(tool.inputSchema);
    const refused = set.refused.length > 0 ? `; not offered: ${set.refused.map((operation) => `${operation.label} (${operation.reason})`).join(', ')}` : '';
    return { ok: true, detail: `${spec.location} (OpenAPI ${spec.version}): ${tools.length} tools calling ${set.base.href}${refused}` };
  }

  #spec(name: string, spec: string): Promise<LoadedSpec> {
    const cached = this.#specs.get(name);
    if (cached?.spec === spec) return cached.loaded;
    const { options, configDirectory } = this.context;
    const loaded = loadSpec(spec, configDirectory, { allowLoopback: options.allowLoopbackSpecUrls, maxBytes: options.maxSpecBytes, timeoutMs: options.specTimeoutMs });
    this.#specs.set(name, { spec, loaded });
    // A failure is not kept: the next attempt reads again.
    loaded.catch(() => {
      if (this.#specs.get(name)?.loaded === loaded) this.#specs.delete(name);
    });
    return loaded;
  }
}

/**
 * Tool schemas are read as JSON Schema 2020-12 (MCP's default dialect). Lenient on what a
 * document may add (unknown keywords and formats), since the API, not the hub, is the
 * judge of its own inputs and the schemas only have to be sound.
 */
export function newAjv(): Ajv2020 {
  return new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
}

/** Output schemas compiled on a tool's first answer, once per connection. */
function outputValidators(): (planned: OperationTool) => ValidateFunction | undefined {
  const ajv = newAjv();
  const compiled = new Map<string, ValidateFunction>();
  return (planned) => {
    const schema = planned.tool.outputSchema;
    if (schema === undefined) return undefined;
    let validate = compiled.get(planned.tool.name);
    if (!validate) compiled.set(planned.tool.name, (validate = compiledOrLenient(ajv, schema)));
    return validate;
  };
}
