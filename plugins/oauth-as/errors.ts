/** An OAuth error response (RFC 6749 section 5.2 shape) with its HTTP status. */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly code: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }

  get body(): { error: string; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}
