import { MAP_ERROR_CODES } from './error-codes.js';
import { HubError } from '../../core/plugin/errors.js';

/**
 * The two kinds of failure a tool reports as an `isError` result: the caller's input
 * (fix the arguments) and an upstream service (retry later or pick another provider).
 * Anything else is a bug and is reported without its details.
 */
export class InputError extends HubError {
  override readonly name = 'InputError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(MAP_ERROR_CODES.INPUT, message, options);
  }
}

export class UpstreamError extends HubError {
  override readonly name = 'UpstreamError';
  /** No connection could be made at all (as opposed to a slow or failing answer): the operator's set-up, not the service, needs a change. */
  readonly unreachable: boolean;

  constructor(
    /** The service's neutral name (`geocoder_a`, `routing engine`, …): error texts name no backing product. */
    readonly service: string,
    /** The HTTP status, or undefined for a network failure or timeout. */
    readonly status: number | undefined,
    detail: string,
    options?: { cause?: unknown; unreachable?: boolean },
  ) {
    super(MAP_ERROR_CODES.UPSTREAM, `${service} ${status === undefined ? 'failed' : `answered HTTP ${status}`}: ${detail}`, options);
    this.unreachable = options?.unreachable ?? false;
  }

  /** Whether the same request may succeed later: a timeout, too many requests, or a failure on the service's side. */
  get transient(): boolean {
    return !this.unreachable && (this.status === undefined || this.status === 429 || this.status >= 500);
  }
}

/** Replaces every secret in `text`, so a key can never reach a result or a log. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length > 0) result = result.split(secret).join('<API_KEY>');
  }
  return result;
}
