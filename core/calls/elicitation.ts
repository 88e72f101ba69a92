import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, type ClientCapabilities, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerView } from '../children/server-view.js';
import type { CallerRequest } from './caller-request.js';
import type { ServedRevision } from '../revisions/served-revision.js';

/** Whether a child's question reaches the caller, and why (the text `describe_connection` shows). */
export interface ElicitationDecision {
  forward: boolean;
  reason: string;
  /** False when the answer still depends on a server that was not named. */
  final: boolean;
}

/** The one embedded request kind the hub carries; sampling and roots are dropped. */
const CARRIED_INPUT_REQUEST = 'elicitation/create';

/** Distinct (client, server, reason) triples remembered for the once-only log; beyond it, the oldest are forgotten. */
const REMEMBERED_DROPS = 10_000;

/** The capabilities the caller declared: in the request's envelope, else when its stdio session opened. */
export function callerCapabilities(request: CallerRequest, sessionCapabilities?: ClientCapabilities): ClientCapabilities | undefined {
  const declared = request.envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  return declared ?? sessionCapabilities;
}

/**
 * The single decision whether a child's question is forwarded to the caller, used by the
 * per-server endpoint, `call_tool` and `describe_connection` alike. All four must hold:
 * the caller is on a revision that carries elicitation, this request declared the
 * capability, the operator allows it, and the child is up on a revision whose questions
 * come as results (one that asks mid-call would need a connection held open).
 */
export function decideElicitation(revision: ServedRevision, capabilities: ClientCapabilities | undefined, child: ServerView | undefined): ElicitationDecision {
  if (revision.elicitation === 'not-offered') return refuse(`the hub does not offer elicitation on ${revision.revision}; a child takes its own fallback`);
  if (capabilities?.elicitation === undefined) return refuse('this request did not declare the elicitation capability');
  if (revision.elicitation === 'switched-off') return refuse('the operator switched elicitation off');
  if (!child) return { forward: false, final: false, reason: 'the answer depends on the server: a question is forwarded when the server is up on a revision that asks by result' };
  if (child.status !== 'up' || !child.revision) return refuse(`server "${child.name}" is ${child.status} and has negotiated no revision yet`);
  if (!child.asksByResult) return refuse(`server "${child.name}" speaks MCP ${child.revision}, whose questions would need a connection held open`);
  return { forward: true, final: true, reason: `questions from "${child.name}" come back as the call's result` };
}

function refuse(reason: string): ElicitationDecision {
  return { forward: false, final: true, reason };
}

/**
 * Passes a child's question on, or drops what cannot be: everything when the decision says
 * no, and embedded sampling or roots requests always. Each drop is logged once per client,
 * server and reason. Returns a tool-error text when nothing is left to ask.
 */
export class QuestionRelay {
  readonly #logged = new Set<string>();

  constructor(private readonly log: FastifyBaseLogger) {}

  relay(question: InputRequiredResult, revision: ServedRevision, decision: ElicitationDecision, request: CallerRequest, child: ServerView): InputRequiredResult | string {
    const client = callerName(request);
    if (!decision.forward) {
      this.#dropped(client, child, decision.reason, Object.keys(question.inputRequests ?? {}));
      return `server "${child.name}" asked a question that cannot be forwarded: ${decision.reason}`;
    }
    const relayed = revision.relayQuestion(question, (method) => method === CARRIED_INPUT_REQUEST);
    for (const [method, keys] of relayed.dropped) this.#dropped(client, child, `embedded ${method} is not carried by the hub`, keys);
    return relayed.question ?? `server "${child.name}" asked only for input the hub does not carry (${[...relayed.dropped.keys()].join(', ')})`;
  }

  #dropped(client: string, child: ServerView, reason: string, keys: string[]): void {
    const once = JSON.stringify([client, child.name, reason]);
    if (this.#logged.has(once)) return;
    if (this.#logged.size >= REMEMBERED_DROPS) this.#logged.delete(this.#logged.values().next().value as string);
    this.#logged.add(once);
    this.log.warn({ server: child.name, client, reason, inputRequests: keys }, `dropped a question from ${child.name}: ${reason}`);
  }
}

/** Who asked, for the once-per-client log: the OAuth client, else the name the client gave. */
function callerName(request: CallerRequest): string {
  const clientInfo = request.envelope[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
  return request.clientId ?? (typeof clientInfo?.name === 'string' ? clientInfo.name : 'an unnamed client');
}
