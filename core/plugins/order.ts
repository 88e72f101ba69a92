import { HUB_ERROR_CODES, StartupError } from '../errors.js';
import type { HubPlugin } from '../plugin.js';

/**
 * Orders plugins so each comes after its dependencies, keeping the given order where the
 * dependencies leave a choice. A cycle is a StartupError that names it.
 */
export function orderByDependencies(plugins: HubPlugin[]): HubPlugin[] {
  const byName = new Map(plugins.map((plugin) => [plugin.name, plugin]));
  const ordered: HubPlugin[] = [];
  const done = new Set<string>();
  const path: string[] = [];

  const visit = (plugin: HubPlugin): void => {
    if (done.has(plugin.name)) return;
    const cycleStart = path.indexOf(plugin.name);
    if (cycleStart !== -1) {
      throw new StartupError(`plugin dependency cycle: ${[...path.slice(cycleStart), plugin.name].join(' -> ')}`, { code: HUB_ERROR_CODES.PLUGIN_DEPENDENCY });
    }
    path.push(plugin.name);
    for (const dependency of plugin.dependencies ?? []) {
      const next = byName.get(dependency);
      if (next) visit(next);
    }
    path.pop();
    done.add(plugin.name);
    ordered.push(plugin);
  };

  plugins.forEach(visit);
  return ordered;
}
