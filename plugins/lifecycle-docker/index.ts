import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import Value from 'typebox/value';
import { createDockerChildType } from './docker-type.js';
import { DockerEntry, isPinned } from './entry.js';
import { engineAddress, openEngine, ownerOf, type Engine, type EngineAddress } from './engine.js';
import { removeLive, removeOrphans } from './orphans.js';
import { containerSpec, type SpecContext } from './spec.js';
import { errorMessage, definePlugin, hubErrorCode, StartupError } from '../../core/plugin/index.js';
import manifest from './manifest.js';

export const LifecycleDockerOptions = Type.Object(
  {
    maxMessageBytes: Type.Integer({
      minimum: 1024,
      default: 10 * 1024 * 1024,
      description: 'A container that sends a longer message (stdout line) is cut off: its connection ends and the container is removed.',
    }),
    defaultMemory: Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?[bkmgBKMG]?$', default: '512m', description: 'Memory limit of a container whose entry sets no memory.' }),
    defaultPids: Type.Integer({ minimum: 1, default: 256, description: 'Process limit of a container whose entry sets no pids.' }),
    stderrMaxLineLength: Type.Integer({ minimum: 1, default: 1000, description: 'Longer stderr lines are cut in the hub log.' }),
    stderrLinesPerMinute: Type.Integer({ minimum: 1, default: 300, description: 'Per server; further stderr lines are dropped and counted.' }),
  },
  { additionalProperties: false },
);

export default definePlugin({
  ...manifest,
  options: LifecycleDockerOptions,
  register(app, options, hub) {
    const entries = Object.entries(hub.config.mcpServers ?? {}).filter(([, entry]) => entry.type === 'docker');
    let address: EngineAddress;
    try {
      address = engineAddress(hub.env);
    } catch (error) {
      // A hub without docker servers has no use for DOCKER_HOST, whatever it says.
      if (entries.length > 0) throw new StartupError((error as Error).message, { code: hubErrorCode(error), cause: error });
      hub.log.debug({ err: (error as Error).message }, 'lifecycle-docker: no docker child type');
      return;
    }
    const spec: SpecContext = {
      owner: ownerOf(hub.settings.dataPath),
      instance: randomUUID(),
      configDirectory: hub.configDirectory,
      protectedPaths: { dataPath: hub.settings.dataPath, engineSocket: address.socket },
      defaults: { memory: options.defaultMemory, pids: options.defaultPids },
    };
    for (const [name, entry] of entries) checkEntry(name, entry, spec, hub.log);

    const live = new Set<string>();
    let engine: Promise<Engine> | undefined;
    const connected = (): Promise<Engine> => (engine ??= openEngine(address));
    hub.childTypes.add(
      'docker',
      createDockerChildType({
        engine: connected,
        clientInfo: { name: 'mcp-hub', version: hub.version },
        spec,
        maxMessageBytes: options.maxMessageBytes,
        stderr: { maxLineLength: options.stderrMaxLineLength, linesPerMinute: options.stderrLinesPerMinute },
        live,
      }),
    );
    // Only a hub that runs docker servers talks to the engine at all.
    const sweep =
      entries.length === 0
        ? Promise.resolve()
        : connected()
            .then((opened) => removeOrphans(opened.docker, spec.owner, spec.instance))
            .then(
              (count) => {
                if (count > 0) hub.log.info({ count }, `removed ${count} container(s) left behind by an earlier run of this hub`);
              },
              (error: unknown) => hub.log.warn({ err: errorMessage(error), dockerHost: address.address }, 'could not look for containers left behind by an earlier run'),
            );
    // Runs after the kernel has stopped every child: only a start that raced the shutdown is left.
    app.addHook('onClose', async () => {
      await sweep;
      if (engine) await removeLive((await engine).docker, live);
    });
  },
});

/** Refuses at start-up what a start would refuse anyway, and warns about unpinned images. */
function checkEntry(name: string, entry: unknown, spec: SpecContext, log: { warn(object: object, message: string): void }): void {
  // A malformed entry is reported by the kernel, with the key and what was expected.
  if (!Value.Check(DockerEntry, entry)) return;
  try {
    containerSpec(name, entry, spec);
  } catch (error) {
    throw new StartupError(`server "${name}": ${(error as Error).message}`, { code: hubErrorCode(error), cause: error });
  }
  if (!isPinned(entry.image)) {
    log.warn({ server: name, image: entry.image }, `server "${name}": the image ${entry.image} is not pinned by digest (name@sha256:...); what runs can change under the same name`);
  }
}
