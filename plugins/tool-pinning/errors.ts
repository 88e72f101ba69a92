import type { HubErrorCode } from '../../core/plugin/index.js';

/** The codes of tool-pinning's errors (`HubError`s), listed in the README. */
export const TOOL_PINNING_ERROR_CODES = {
  /** Approvals of one tool kept overlapping in the store: the approval was not recorded. */
  APPROVAL_CONFLICT: 'HUB_ERR_TOOL_PINNING_APPROVAL_CONFLICT',
} as const satisfies Record<string, HubErrorCode>;
