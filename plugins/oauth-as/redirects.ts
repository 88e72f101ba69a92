/**
 * Exact string match, except native-app loopback redirects (RFC 8252 section 7.3): for
 * an `http` redirect on 127.0.0.1, [::1] or localhost the port may differ from the
 * registered one, everything else must match.
 */
export function redirectAllowed(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const asked = loopback(requested);
  return asked !== undefined && registered.some((uri) => loopback(uri) === asked);
}

/** The redirect without its port, when it is a loopback http redirect. */
function loopback(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname)) return undefined;
  url.port = '';
  return url.href;
}
