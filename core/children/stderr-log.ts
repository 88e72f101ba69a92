import type { FastifyBaseLogger } from 'fastify';

export interface StderrLimits {
  /** Longer lines are cut to this many characters. */
  maxLineLength: number;
  /** Lines beyond this many per minute are dropped and counted. */
  linesPerMinute: number;
}

/**
 * What one server's stderr logs remember across its processes, so that a crash that
 * prints the same stack trace on every restart is logged in full once.
 */
export interface StderrMemory {
  lastBurst?: string;
}

/** Lines that arrive this close together are one burst (a stack trace), logged as one record. */
const BURST_MS = 30;
/** A burst longer than this is logged in parts. */
const BURST_MAX_LINES = 40;
/** Lines kept to say why a process ended. */
const TAIL_LINES = 20;
/** A line that states an error, as runtimes print them (`Error: …`, `ModuleNotFoundError: …`, `error: …`, `FATAL …`). */
const ERROR_LINE = /^\s*(?:[\w.$]*(?:Error|Exception)\b|error\b|fatal\b|panic\b)/i;

/**
 * Turns a child's stderr (a process's or a container's) into hub log records: lines that
 * arrive together (a stack trace) become one record, a burst identical to the one before
 * is not repeated, long lines are cut, and a noisy child cannot flood the hub log. It
 * keeps the last lines, so an exit can say what the child complained about.
 */
export class StderrLog {
  lastLine: string | undefined;
  #partial = '';
  #burst: string[] = [];
  #burstTimer: NodeJS.Timeout | undefined;
  #tail: string[] = [];
  #windowStart = Date.now();
  #linesInWindow = 0;
  #dropped = 0;

  constructor(
    private readonly name: string,
    private readonly log: FastifyBaseLogger,
    private readonly limits: StderrLimits,
    private readonly memory: StderrMemory = {},
  ) {}

  /**
   * The line that best says why the child failed: the last one that states an error (a
   * stack trace's message rather than its frames or the runtime's version banner),
   * otherwise the last line.
   */
  get cause(): string | undefined {
    return this.#tail.findLast((line) => ERROR_LINE.test(line) && !/^\s+at /.test(line))?.trim() ?? this.lastLine;
  }

  /** The last lines the child wrote (at most 20, each cut as the log cuts it), oldest first: a copy. */
  get tail(): string[] {
    return [...this.#tail];
  }

  write(chunk: Buffer | string): void {
    this.#partial += chunk.toString();
    let newline = this.#partial.indexOf('\n');
    while (newline !== -1) {
      this.#line(this.#partial.slice(0, newline));
      this.#partial = this.#partial.slice(newline + 1);
      newline = this.#partial.indexOf('\n');
    }
    if (this.#partial.length > this.limits.maxLineLength) {
      this.#line(this.#partial);
      this.#partial = '';
    }
  }

  /** Logs what is left: an unterminated last line, the burst under way, the count of dropped lines. */
  end(): void {
    if (this.#partial !== '') this.#line(this.#partial);
    this.#partial = '';
    this.#flush();
    this.#reportDropped();
  }

  #line(raw: string): void {
    const text = raw.replace(/\r$/, '');
    if (text.trim() === '') return;
    const line = text.length > this.limits.maxLineLength ? `${text.slice(0, this.limits.maxLineLength)}… (${text.length} characters)` : text;
    this.lastLine = line;
    this.#tail.push(line);
    if (this.#tail.length > TAIL_LINES) this.#tail.shift();
    const now = Date.now();
    if (now - this.#windowStart >= 60_000) {
      this.#flush();
      this.#reportDropped();
      this.#windowStart = now;
      this.#linesInWindow = 0;
    }
    if (this.#linesInWindow >= this.limits.linesPerMinute) {
      this.#dropped += 1;
      return;
    }
    this.#linesInWindow += 1;
    this.#burst.push(line);
    if (this.#burst.length >= BURST_MAX_LINES) return this.#flush();
    clearTimeout(this.#burstTimer);
    this.#burstTimer = setTimeout(() => this.#flush(), BURST_MS);
    this.#burstTimer.unref();
  }

  #flush(): void {
    clearTimeout(this.#burstTimer);
    if (this.#burst.length === 0) return;
    const text = this.#burst.join('\n');
    const lines = this.#burst.length;
    this.#burst = [];
    if (lines > 1 && text === this.memory.lastBurst) {
      this.log.info({ stream: 'stderr', lines, repeated: true }, `${this.name}: the same ${lines} stderr lines as last time`);
      return;
    }
    this.memory.lastBurst = text;
    this.log.info({ stream: 'stderr', ...(lines > 1 && { lines }) }, `${this.name}: ${text}`);
  }

  #reportDropped(): void {
    if (this.#dropped === 0) return;
    this.log.warn({ dropped: this.#dropped }, `${this.name}: ${this.#dropped} stderr lines dropped (more than ${this.limits.linesPerMinute} a minute)`);
    this.#dropped = 0;
  }
}
