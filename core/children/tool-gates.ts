import type { Tool } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import { Registry } from '../registry.js';
import type { ServerView } from './server-view.js';

/**
 * A plugin's say over which of a server's tools callers get, after the allow/deny filter
 * (tool pinning withholds a tool whose definition changed until an operator approves it).
 * The kernel asks every gate about every tool it lists and every tool called, on
 * `/<name>/mcp` and through `/hub`; it knows nothing of why a gate withholds one.
 */
export interface ToolGate {
  /**
   * Why `tool` of `server` is withheld from callers now, in words for them (what would
   * make it available included), or undefined when it is offered. Asked for every tool
   * listed and every call: answer from memory.
   */
  withheld(server: ServerView, tool: Tool): string | undefined;
  /**
   * Brings what `withheld` answers from up to date (another process may have approved a
   * tool); awaited before a withheld tool is refused or a listing leaves one out.
   */
  refresh?(server: ServerView): Promise<void>;
  /**
   * Hears every tool list a server reports (on connecting, on a change it announces, from
   * its snapshot at start), after the allow/deny filter, before a caller can see it.
   * Synchronous; an error is logged and the list taken all the same.
   */
  review?(server: ServerView, tools: readonly Tool[]): void;
  /**
   * Whether callers get the server's instructions `text` (as one revision's face states
   * them): undefined when they do; else why not, and what they get instead. Asked at every
   * handshake on `/<name>/mcp`: answer from memory (`refresh` brings it up to date).
   */
  instructions?(server: ServerView, text: string): WithheldInstructions | undefined;
  /**
   * Hears the instructions a server states (on connecting, from its snapshot, on another
   * revision's face), before a caller can get them. Synchronous; an error is logged.
   */
  reviewInstructions?(server: ServerView, text: string): void;
}

/** Instructions a gate withholds: why, and the text served in their place (none when absent). */
export interface WithheldInstructions {
  readonly reason: string;
  /** What callers get instead, such as the text an operator approved last. */
  readonly instead?: string;
}

/** A tool a gate withholds, and why. */
export interface WithheldTool {
  readonly name: string;
  readonly reason: string;
}

/** The gates plugins added (`hub.toolGates`), asked in the order they were added. */
export class ToolGates extends Registry<ToolGate> {
  /** Kept beside the registry so that asking costs no copy of it per call. */
  readonly #gates: ToolGate[] = [];

  constructor(private readonly log: FastifyBaseLogger) {
    super('tool gate');
  }

  override add(name: string, gate: ToolGate, owner?: string): void {
    super.add(name, gate, owner);
    this.#gates.push(gate);
  }

  /** No gate was added: every tool the filter lets through is offered. */
  get open(): boolean {
    return this.#gates.length === 0;
  }

  /** Why the first gate that withholds `tool` does, or undefined when none does. */
  withheld(server: ServerView, tool: Tool): string | undefined {
    for (const gate of this.#gates) {
      const reason = gate.withheld(server, tool);
      if (reason !== undefined) return reason;
    }
    return undefined;
  }

  /** Why the first gate that withholds the server's instructions `text` does, and what is served instead; undefined when none does. */
  instructions(server: ServerView, text: string): WithheldInstructions | undefined {
    for (const gate of this.#gates) {
      const withheld = gate.instructions?.(server, text);
      if (withheld !== undefined) return withheld;
    }
    return undefined;
  }

  reviewInstructions(server: ServerView, text: string): void {
    for (const gate of this.#gates) {
      try {
        gate.reviewInstructions?.(server, text);
      } catch (error) {
        this.log.warn({ server: server.name, err: (error as Error).message }, 'tool gate failed to review instructions');
      }
    }
  }

  /** A gate that cannot refresh (its store does not answer) keeps what it knew: the caller is told why the tool is withheld, never a failure. */
  async refresh(server: ServerView): Promise<void> {
    await Promise.all(
      this.#gates
        .map((gate) => gate.refresh?.(server).catch((error: unknown) => this.log.warn({ server: server.name, err: (error as Error).message }, 'tool gate failed to refresh')))
        .filter((refreshing) => refreshing !== undefined),
    );
  }

  review(server: ServerView, tools: readonly Tool[]): void {
    for (const gate of this.#gates) {
      try {
        gate.review?.(server, tools);
      } catch (error) {
        this.log.warn({ server: server.name, err: (error as Error).message }, 'tool gate failed to review a tool list');
      }
    }
  }
}
