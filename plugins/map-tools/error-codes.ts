import type { HubErrorCode } from '../../core/plugin/errors.js';

/**
 * The codes of the map tools' errors, listed in the README. Apart from the error classes
 * so that the extract's decoding thread can name them without loading the kernel.
 */
export const MAP_ERROR_CODES = {
  /** The caller's arguments; the tool error names the fix (`InputError`). */
  INPUT: 'HUB_ERR_MAP_INPUT',
  /** An online service failed, timed out or answered off its documented shape (`UpstreamError`). */
  UPSTREAM: 'HUB_ERR_MAP_UPSTREAM',
  /** A MAP_* setting, MAP_ALLOW_TOOLS or MAP_DENY_TOOLS does not parse. */
  SETTING_INVALID: 'HUB_ERR_MAP_SETTING_INVALID',
  /** MAP_OSM_FILE cannot be read. */
  EXTRACT_UNREADABLE: 'HUB_ERR_MAP_EXTRACT_UNREADABLE',
  /** MAP_OSM_FILE is not a well-formed OSM PBF extract (truncated, malformed). */
  EXTRACT_INVALID: 'HUB_ERR_MAP_EXTRACT_INVALID',
  /** The extract needs a compression or a feature the reader does not support. */
  EXTRACT_UNSUPPORTED: 'HUB_ERR_MAP_EXTRACT_UNSUPPORTED',
  /** The extract is not ordered nodes, then ways, then relations (`osmium sort` fixes it). */
  EXTRACT_UNSORTED: 'HUB_ERR_MAP_EXTRACT_UNSORTED',
  /** The decoding thread stopped before the end of the extract. */
  DECODER_STOPPED: 'HUB_ERR_MAP_DECODER_STOPPED',
} as const satisfies Record<string, HubErrorCode>;
