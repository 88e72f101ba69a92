import type { PluginHub } from '../../core/plugin/index.js';

interface Figures {
  /** When the server last came up, while it is up. */
  upSince: number | undefined;
  /** Starts that brought it up since the hub started. */
  wakes: number;
}

/** Per server, since the hub started: how long it has been up and how often it was woken (from the kernel's lifecycle events). */
export class ServerFigures {
  readonly #figures = new Map<string, Figures>();

  constructor(
    hub: PluginHub,
    private readonly now: () => number = Date.now,
  ) {
    hub.servers.observe({
      transition: (server, event) => {
        const figures = this.#of(server.name);
        if (event.to === 'up') figures.upSince = this.now();
        else if (event.from === 'up') figures.upSince = undefined;
      },
      start: (server, event) => {
        if (event.outcome === 'up') this.#of(server.name).wakes += 1;
      },
    });
    hub.servers.onRemoved((name) => this.#figures.delete(name));
  }

  of(name: string): { uptimeSeconds: number | null; wakes: number } {
    const figures = this.#figures.get(name);
    return { uptimeSeconds: figures?.upSince === undefined ? null : Math.floor((this.now() - figures.upSince) / 1000), wakes: figures?.wakes ?? 0 };
  }

  #of(name: string): Figures {
    let figures = this.#figures.get(name);
    if (!figures) this.#figures.set(name, (figures = { upSince: undefined, wakes: 0 }));
    return figures;
  }
}
