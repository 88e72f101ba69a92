import type { FastifyBaseLogger } from 'fastify';

export interface StderrLimits {
  /** Longer lines are cut to this many characters. */
  maxLineLength: number;
  /** Lines beyond this many per minute are dropped and counted. */
  linesPerMinute: number;
}

/**
 * Turns a child's stderr (a process's or a container's) into hub log lines, one per line,
 * prefixed with the server name. Bounded in size (long lines are cut, an unterminated line
 * is flushed at the limit) and in rate (a noisy child cannot flood the hub log), and it
 * keeps the last line so an exit can say what the child last complained about.
 */
export class StderrLog {
  lastLine: string | undefined;
  #partial = '';
  #windowStart = Date.now();
  #linesInWindow = 0;
  #dropped = 0;

  constructor(
    private readonly name: string,
    private readonly log: FastifyBaseLogger,
    private readonly limits: StderrLimits,
  ) {}

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

  /** Logs what is left of an unterminated last line, and the count of dropped lines. */
  end(): void {
    if (this.#partial !== '') this.#line(this.#partial);
    this.#partial = '';
    this.#reportDropped();
  }

  #line(raw: string): void {
    const text = raw.replace(/\r$/, '');
    if (text.trim() === '') return;
    const line = text.length > this.limits.maxLineLength ? `${text.slice(0, this.limits.maxLineLength)}… (${text.length} characters)` : text;
    this.lastLine = line;
    const now = Date.now();
    if (now - this.#windowStart >= 60_000) {
      this.#reportDropped();
      this.#windowStart = now;
      this.#linesInWindow = 0;
    }
    if (this.#linesInWindow >= this.limits.linesPerMinute) {
      this.#dropped += 1;
      return;
    }
    this.#linesInWindow += 1;
    this.log.info({ server: this.name, stream: 'stderr' }, `${this.name}: ${line}`);
  }

  #reportDropped(): void {
    if (this.#dropped === 0) return;
    this.log.warn({ server: this.name, dropped: this.#dropped }, `${this.name}: ${this.#dropped} stderr lines dropped (more than ${this.limits.linesPerMinute} a minute)`);
    this.#dropped = 0;
  }
}
