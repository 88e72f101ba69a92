import { Type, type Static } from 'typebox';

/**
 * Server names become the first segment of `/<name>/mcp` and a file name under
 * `<DATA_PATH>/snapshots/`, so they are kept to a character set that is safe in both.
 */
export const SERVER_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';

/**
 * One entry of `mcpServers`. Claude Code's keys copy 1:1; the kernel's own keys are typed
 * here. Unknown keys are kept and ignored so the file stays interchangeable; keys that a
 * child type needs (`command`, `url`, ...) are checked again by that type's own schema, and
 * keys a plugin adds (`oauth`, ...) by that plugin's `serverKeys`.
 */
export const ServerEntry = Type.Object(
  {
    type: Type.Optional(Type.String({ minLength: 1, description: 'Child type; inferred from command (stdio) or url (http) when absent.' })),
    command: Type.Optional(Type.String({ minLength: 1 })),
    args: Type.Optional(Type.Array(Type.String())),
    env: Type.Optional(Type.Record(Type.String(), Type.String())),
    cwd: Type.Optional(Type.String()),
    url: Type.Optional(Type.String({ minLength: 1 })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Sent on every request to a remote child.' })),
    hub: Type.Optional(Type.Boolean({ description: 'false keeps the tools out of /hub; the server keeps its own endpoint.' })),
    allowTools: Type.Optional(Type.Array(Type.String(), { description: 'Only these tools are exposed.' })),
    denyTools: Type.Optional(Type.Array(Type.String(), { description: 'These tools are hidden.' })),
    keepAlive: Type.Optional(Type.Boolean({ description: 'Always running: never slept for idleness.' })),
    disabled: Type.Optional(Type.Boolean({ description: 'true leaves the server out: not served, not started (as Claude Desktop, Cursor and Cline read it).' })),
    timeout: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "Milliseconds a tool call of this server may go without progress (TOOL_CALL_TIMEOUT_MS for this server, Claude Code's unit); under 1000 it is ignored with a warning.",
      }),
    ),
    startTimeoutMs: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'Milliseconds this server may take to start and answer its MCP handshake, retries included (START_TIMEOUT_MS for this server): raise it for a server whose first start is slow, such as an npx run that downloads its package.',
      }),
    ),
  },
  { additionalProperties: true },
);
/** An entry as code writes one: the kernel's keys typed, and any key a plugin declares (`serverKeys`) or another client uses. */
export type ServerEntry = Static<typeof ServerEntry> & { [key: string]: unknown };

export const PluginSelection = Type.Union([Type.Boolean(), Type.Record(Type.String(), Type.Unknown())], {
  description: 'true or false, or the plugin options object (which enables it).',
});

export const HubConfig = Type.Object(
  {
    mcpServers: Type.Optional(Type.Record(Type.String(), ServerEntry)),
    plugins: Type.Optional(
      Type.Record(Type.String(), PluginSelection, {
        description: 'Built-in plugin names, or third-party plugins by package name or by a path relative to the config file.',
      }),
    ),
  },
  { additionalProperties: true, $id: 'hub-config', title: 'Hub configuration (mcp.json)' },
);
export type HubConfig = Omit<Static<typeof HubConfig>, 'mcpServers'> & { mcpServers?: Record<string, ServerEntry> };
