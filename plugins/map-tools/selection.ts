import { MAP_ERROR_CODES } from './error-codes.js';
import { ESSENTIAL_TOOLS, TOOL_NAMES, type ToolName } from './schemas.js';
import { StartupError } from '../../core/plugin/errors.js';

/**
 * The tools to register: `MAP_ALLOW_TOOLS` narrows the set (all when unset),
 * `MAP_DENY_TOOLS` removes from it. Both are comma-separated tool names; the word
 * `essential` stands for the six essential tools in either list.
 */
export function selectTools(allow: string | undefined, deny: string | undefined): ToolName[] {
  const allowed = parseList('MAP_ALLOW_TOOLS', allow);
  const denied = parseList('MAP_DENY_TOOLS', deny) ?? new Set();
  return TOOL_NAMES.filter((name) => (allowed === undefined || allowed.has(name)) && !denied.has(name));
}

function parseList(variable: string, value: string | undefined): Set<ToolName> | undefined {
  const items = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) return undefined;
  const names = new Set<ToolName>();
  for (const item of items) {
    if (item === 'essential') ESSENTIAL_TOOLS.forEach((name) => names.add(name));
    else if ((TOOL_NAMES as readonly string[]).includes(item)) names.add(item as ToolName);
    else throw new StartupError(`${variable}: unknown map tool "${item}"; known: essential, ${TOOL_NAMES.join(', ')}`, { code: MAP_ERROR_CODES.SETTING_INVALID });
  }
  return names;
}
