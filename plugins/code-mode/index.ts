import { getCodeApi } from './code-api.js';
import manifest from './manifest.js';
import { CodeModeOptions } from './options.js';
import { SandboxPool } from './pool.js';
import { runCode } from './run-code.js';
import { RunCodeOutput } from './schemas.js';
import { toolDeclarations } from './tool-declaration.js';
import { definePlugin } from '../../core/plugin/index.js';

/**
 * Code mode: two tools of `/hub` (and hub-stdio) beyond the specification's six, with
 * which a model writes one short program against typed tool APIs instead of calling tools
 * one at a time. Programs run in worker threads, started at the first run, where QuickJS
 * and its WebAssembly load; the hub's thread never does.
 */
export default definePlugin({
  ...manifest,
  options: CodeModeOptions,
  dependencies: ['meta-tools'],
  publicSchemas: { 'run_code-output': RunCodeOutput },
  register(app, options, hub) {
    const codeMode = options;
    const pool = new SandboxPool(codeMode.memoryMb);
    app.addHook('onClose', () => pool.close());
    for (const tool of [getCodeApi(hub), runCode(hub, codeMode, pool)]) hub.metaTools.add(tool.name, tool);
    // For search_tools' withCode (tool-search), which finds this service on the hub rather than importing this plugin.
    hub.toolDeclarations.provide(toolDeclarations);
  },
});
