import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isLegacyRequest,
  isSpecType,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { definePlugin, type HttpRequestView, isEnvelopedMessage, isPlainObject, type PlainCall, plainParams, toolCallShape } from '../../core/plugin-api.js';

const REVISION = '2026-07-28';

/** The per-request envelope; a plain call's `_meta` carries these, and the caller's own keys outside the reserved prefix. */
const ENVELOPE_KEYS = new Set<string>([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]);
const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';

/**
 * MCP 2026-07-28 on every endpoint: stateless, chosen by `server/discover`. List changes
 * and resource updates reach clients on `subscriptions/listen` streams; `resources/subscribe`
 * is gone from the revision, so a child's subscribe capability is re-advertised to say
 * that a listen filter may name resource URIs.
 */
export default definePlugin({
  name: 'mcp-2026-07-28',
  description: 'Serves MCP 2026-07-28 (server/discover, subscriptions/listen, input-required elicitation).',
  options: Type.Object(
    {
      elicitation: Type.Boolean({
        default: true,
        description: "The operator's switch: false keeps every child's question from reaching callers, so children take their own fallback.",
      }),
    },
    { additionalProperties: false },
  ),
  register(_app, options, hub) {
    hub.eras.add(
      REVISION,
      {
        revision: REVISION,
        era: 'modern',
        claims: async (request, parsedBody) => !(await isLegacyRequest(request, parsedBody)),
        claimsMessage: isEnvelopedMessage,
        capabilities: narrow,
        presentTool: (tool) => tool,
        presentResult: (_tool, result) => result,
        elicitation: options.elicitation ? 'carried' : 'switched-off',
        plainCall,
        // Results state the server's identity and their kind on this revision.
        frameResult: (result, identity) => ({ ...result, _meta: { ...result._meta, [SERVER_INFO_META_KEY]: identity }, resultType: 'complete' }),
        listenedResources,
      },
      'mcp-2026-07-28',
    );
  },
});

function narrow(child: ServerCapabilities | undefined): ServerCapabilities {
  return {
    tools: { listChanged: true },
    ...(child?.resources && { resources: { listChanged: true, ...(child.resources.subscribe && { subscribe: true }) } }),
    ...(child?.prompts && { prompts: { listChanged: true } }),
    ...(child?.completions && { completions: {} }),
  };
}

/**
 * A plain call on this revision: standard headers that match the body, a well-formed
 * envelope (checked with the SDK's own schemas) without the elicitation capability, and
 * no progress token. The caller's own `_meta` keys go to the child as on the SDK's road;
 * any other reserved key is left to the SDK, which knows what it means.
 */
function plainCall(request: HttpRequestView): PlainCall | undefined {
  const shape = toolCallShape(request);
  if (!shape) return undefined;
  const { headers } = request;
  if (headers['mcp-protocol-version'] !== REVISION || headers['mcp-method'] !== 'tools/call' || headers['mcp-name'] !== shape.name) return undefined;
  const meta = shape.meta;
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== REVISION || meta.progressToken !== undefined) return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isSpecType.Implementation(meta[CLIENT_INFO_META_KEY]) || !isSpecType.ClientCapabilities(capabilities) || capabilities.elicitation !== undefined) return undefined;
  if (meta[LOG_LEVEL_META_KEY] !== undefined && !isSpecType.LoggingLevel(meta[LOG_LEVEL_META_KEY])) return undefined;
  const envelope: Record<string, unknown> = {};
  const passed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    if (ENVELOPE_KEYS.has(key)) envelope[key] = value;
    else if (key.startsWith(RESERVED_META_PREFIX)) return undefined;
    else passed[key] = value;
  }
  return { id: shape.id, params: plainParams(shape, passed), envelope };
}

/** The resource URIs a `subscriptions/listen` request names, so the child is asked to watch them. */
function listenedResources(body: unknown): string[] {
  const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (message?.method !== 'subscriptions/listen') return [];
  const uris = message.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}
