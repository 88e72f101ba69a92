import type { MAP_ERROR_CODES } from '../error-codes.js';

type ExtractFaultCode = (typeof MAP_ERROR_CODES)['EXTRACT_INVALID' | 'EXTRACT_UNSUPPORTED'];

/**
 * What the reader finds wrong with an extract's bytes. Not a `HubError`: the reader runs
 * on the decoding thread, which does not load the kernel's surface (a second and 80 MB a
 * thread); the `code` crosses to the loader as data and becomes a `HubError` there.
 */
export class ExtractFault extends Error {
  override readonly name = 'ExtractFault';

  constructor(
    readonly code: ExtractFaultCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
