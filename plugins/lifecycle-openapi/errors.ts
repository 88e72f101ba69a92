import { HubError, type HubErrorCode } from '../../core/plugin/index.js';

/** The codes of the openapi child type's errors (`HubError`s), listed in the README. */
export const OPENAPI_ERROR_CODES = {
  /** The document could not be read: a missing file, a refused or failed fetch, one over the size cap. */
  SPEC_UNREADABLE: 'HUB_ERR_OPENAPI_SPEC_UNREADABLE',
  /** The document is not a valid OpenAPI 3.0 or 3.1 document (a Swagger 2.0 one included). */
  SPEC_INVALID: 'HUB_ERR_OPENAPI_SPEC_INVALID',
  /** Neither `baseUrl` nor the document's first server gives an absolute http(s) URL. */
  BASE_URL_INVALID: 'HUB_ERR_OPENAPI_BASE_URL_INVALID',
  /** More operations than a model can choose among, with neither `operations` nor `allowTools` narrowing them. */
  TOO_MANY_OPERATIONS: 'HUB_ERR_OPENAPI_TOO_MANY_OPERATIONS',
  /** `operations` names an operation the document lacks, or one the hub refuses (it leaves the base URL's origin). */
  OPERATION_UNKNOWN: 'HUB_ERR_OPENAPI_OPERATION_UNKNOWN',
  /** The base URL did not answer at connect (refused, unresolvable, timed out). */
  API_UNREACHABLE: 'HUB_ERR_OPENAPI_API_UNREACHABLE',
} as const satisfies Record<string, HubErrorCode>;

export class OpenApiError extends HubError {
  override readonly name = 'OpenApiError';
}
