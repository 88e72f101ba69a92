import type Docker from 'dockerode';
import { LABELS, removeContainer } from './engine.js';

/**
 * Removes the containers an earlier run of this hub left behind (it crashed or was
 * killed before it could remove them): those with this hub's owner label and another
 * run's instance label. Other hubs' containers carry another owner and are not touched.
 * Resolves to the number removed.
 */
export async function removeOrphans(docker: Docker, owner: string, instance: string): Promise<number> {
  const found = await docker.listContainers({ all: true, filters: { label: [`${LABELS.owner}=${owner}`] } });
  const orphans = found.filter((container) => container.Labels[LABELS.instance] !== instance);
  await Promise.all(orphans.map((container) => removeContainer(docker.getContainer(container.Id))));
  return orphans.length;
}

/** Removes what this run still has (a start that raced the shutdown), by ID. */
export async function removeLive(docker: Docker, live: Set<string>): Promise<void> {
  await Promise.allSettled([...live].map((id) => removeContainer(docker.getContainer(id)).then(() => live.delete(id))));
}
