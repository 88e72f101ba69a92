/**
 * Runs at once, in all and per caller: a run beyond either bound is refused at once rather
 * than queued, since a queued program would spend its caller's time limit waiting.
 */
export class RunSlots {
  readonly #perClient = new Map<string, number>();
  #running = 0;

  constructor(
    readonly maxRuns: number,
    readonly maxPerClient: number,
  ) {}

  /** Takes a slot for `client`, or says why none is free. */
  take(client: string): string | undefined {
    const mine = this.#perClient.get(client) ?? 0;
    if (mine >= this.maxPerClient) return `Too many programs running for this caller (maxConcurrentRunsPerClient: ${this.maxPerClient}); wait for one to end.`;
    if (this.#running >= this.maxRuns) return `Too many programs running on the hub (maxConcurrentRuns: ${this.maxRuns}); try again shortly.`;
    this.#perClient.set(client, mine + 1);
    this.#running += 1;
    return undefined;
  }

  release(client: string): void {
    const mine = (this.#perClient.get(client) ?? 1) - 1;
    if (mine <= 0) this.#perClient.delete(client);
    else this.#perClient.set(client, mine);
    this.#running -= 1;
  }
}
