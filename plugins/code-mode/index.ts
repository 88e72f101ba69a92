import { getCodeApi } from './code-api.js';
import manifest from './manifest.js';
import { CodeModeOptions } from './options.js';
import { runCode } from './run-code.js';
import { RunCodeOutput } from './schemas.js';
import { definePlugin } from '../../core/plugin/index.js';

/**
 * Code mode: two tools of `/hub` (and hub-stdio) beyond the specification's six, with
 * which a model writes one short program against typed tool APIs instead of calling tools
 * one at a time. The sandbox and its WebAssembly load at the first run.
 */
export default definePlugin({
  ...manifest,
  options: CodeModeOptions,
  dependencies: ['meta-tools'],
  publicSchemas: { 'run_code-output': RunCodeOutput },
  register(_app, options, hub) {
    for (const tool of [getCodeApi(hub), runCode(hub, options as CodeModeOptions)]) hub.metaTools.add(tool.name, tool);
  },
});
