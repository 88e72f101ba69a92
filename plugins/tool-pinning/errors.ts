import type { HubErrorCode } from '../../core/plugin/index.js';

/** The codes of tool-pinning's errors (`HubError`s), listed in the README. */
export const TOOL_PINNING_ERROR_CODES = {
  /** Approvals of one tool kept overlapping in the store: the approval was not recorded. */
  APPROVAL_CONFLICT: 'HUB_ERR_TOOL_PINNING_APPROVAL_CONFLICT',
  /** What the console's approval named no longer waits (approved meanwhile, or changed again): nothing was approved. */
  NOT_WAITING: 'HUB_ERR_TOOL_PINNING_NOT_WAITING',
  /** The console's approval named a server that does not pin its tools (or none). */
  SERVER_NOT_PINNING: 'HUB_ERR_TOOL_PINNING_SERVER_NOT_PINNING',
} as const satisfies Record<string, HubErrorCode>;
