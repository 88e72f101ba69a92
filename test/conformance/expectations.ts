import type { FixtureVariant } from '../fixtures/servers/conformance-server.js';
import type { ConformanceRequirements } from '../helpers/conformance.js';

const STATELESS_LEGACY =
  'the fixture serves 2025-11-25 statelessly over HTTP, as the SDK does (createMcpHandler): each request gets a fresh instance, so a request from the server to the client during a call (sampling, elicitation) has no connection to come back on and the SDK answers the call with an error instead';
const NO_SESSIONS =
  'the fixture serves 2025-11-25 statelessly over HTTP (as the hub does): it issues no Mcp-Session-Id, so the scenarios about sessions and their SSE streams have nothing to exercise and end with warnings or information only, no check run';
const NO_TASKS_RUNTIME =
  'the tasks extension (SEP-2663) is not implemented: the v2 SDK has no runtime for tasks/* (its types say so), so tasks/get, tasks/update and tasks/cancel answer -32601 and no tool creates a task; an extension, never scored';

/**
 * The server scenarios that do not pass against the conformance fixture directly (they
 * fail, warn, or run no check), with the reason for each; the same for every variant of
 * the fixture (`FIXTURE_VARIANTS`). Everything else the requirement set runs must pass;
 * the conformance tests assert exactly this list does not, so a fix on either side shows
 * up there.
 */
export const NOT_PASSED_DIRECTLY: Record<ConformanceRequirements, Record<string, string>> = {
  '2025-11-25': {
    'tools-call-sampling': STATELESS_LEGACY,
    'tools-call-elicitation': STATELESS_LEGACY,
    'elicitation-sep1034-defaults': STATELESS_LEGACY,
    'elicitation-sep1330-enums': STATELESS_LEGACY,
    'server-sse-multiple-streams': NO_SESSIONS,
    'server-session-lifecycle': NO_SESSIONS,
    'server-sse-polling': NO_SESSIONS,
  },
  '2026-07-28': {
    'tasks-lifecycle': NO_TASKS_RUNTIME,
    'tasks-capability-negotiation': NO_TASKS_RUNTIME,
    'tasks-wire-fields': NO_TASKS_RUNTIME,
    'tasks-request-state-removal': NO_TASKS_RUNTIME,
    'tasks-mrtr-input': NO_TASKS_RUNTIME,
    'tasks-request-headers': NO_TASKS_RUNTIME,
    'tasks-dispatch-and-envelope': NO_TASKS_RUNTIME,
    'tasks-status-notifications': NO_TASKS_RUNTIME,
    'tasks-required-task-error': NO_TASKS_RUNTIME,
    'tasks-mrtr-composition': NO_TASKS_RUNTIME,
  },
};

const NO_SUBSCRIBE = 'resources/subscribe is not carried on 2025-11-25: nothing is pushed on a stateless 2025 connection (2026-07-28 clients hear updates on subscriptions/listen)';
const NO_LEGACY_QUESTIONS =
  "a 2025-11-25 child asks mid-call, which would need the caller's connection held open: the hub offers no sampling or elicitation on 2025-11-25, and the child takes its own fallback";
const NO_PARAM_HEADER_CHECK =
  "Mcp-Param-* headers (SEP-2243; pending in the suite, never scored) are checked by the SDK only for an McpServer's own tools; the hub, which relays the call with headers of its own, does not refuse a caller's header that disagrees with the body";
const NO_EMBEDDED_SAMPLING_ROOTS =
  'embedded sampling/createMessage and roots/list requests are not carried on 2026-07-28 (only elicitation is): the hub would have to answer for a model or a file system it does not have';

/**
 * What the hub does not carry, by revision: the scenarios that pass against the fixture
 * directly and do not pass through `/<name>/mcp`, with the reason for each, for every
 * variant of the fixture as an `http` and as a `stdio` child. The "what each
 * revision carries" table of docs/reference/mcp-revisions.md states the same list (a test holds them together).
 */
export const HUB_EXCLUSIONS: Record<ConformanceRequirements, Record<string, string>> = {
  '2025-11-25': {
    'resources-subscribe': NO_SUBSCRIBE,
    'resources-unsubscribe': NO_SUBSCRIBE,
    'tools-call-sampling': NO_LEGACY_QUESTIONS,
    'tools-call-elicitation': NO_LEGACY_QUESTIONS,
    'elicitation-sep1034-defaults': NO_LEGACY_QUESTIONS,
    'elicitation-sep1330-enums': NO_LEGACY_QUESTIONS,
  },
  '2026-07-28': {
    'input-required-result-basic-sampling': NO_EMBEDDED_SAMPLING_ROOTS,
    'input-required-result-basic-list-roots': NO_EMBEDDED_SAMPLING_ROOTS,
    'input-required-result-multiple-input-requests': NO_EMBEDDED_SAMPLING_ROOTS,
    'input-required-result-capability-check': NO_EMBEDDED_SAMPLING_ROOTS,
    'http-custom-header-server-validation': NO_PARAM_HEADER_CHECK,
  },
};

const UNDECLARED_LOGGING =
  "the minimal fixture declares no logging capability yet sends log messages (directly the SDK lets it): the hub advertises only what the child declares, and the SDK's server sends no notification of a capability it did not advertise, so the caller hears none";

/** Exclusions of one variant of the fixture only, beside `HUB_EXCLUSIONS` (the revisions page names them too). */
export const VARIANT_EXCLUSIONS: Partial<Record<FixtureVariant, Partial<Record<ConformanceRequirements, Record<string, string>>>>> = {
  minimal: { '2025-11-25': { 'tools-call-with-logging': UNDECLARED_LOGGING } },
};

/** What does not pass through the hub for `variant` on `requirements`, with why. */
export function hubExclusions(requirements: ConformanceRequirements, variant: FixtureVariant): Record<string, string> {
  return { ...HUB_EXCLUSIONS[requirements], ...VARIANT_EXCLUSIONS[variant]?.[requirements] };
}
