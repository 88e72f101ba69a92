/** The hosts of native-app loopback redirects (RFC 8252 section 7.3). */
const LOOPBACK_HOSTS = ['127.0.0.1', '[::1]', 'localhost'];

/**
 * Why a redirect URI may not be registered, or undefined when it may: https, http to a
 * loopback host (RFC 8252 section 7.3), or a private-use scheme in reverse-domain form
 * (section 7.1, `com.example.app:/cb`). Never `javascript:`, `data:`, `file:` or plain
 * http to another host: an error sent there without any action of the person would make
 * the hub an open redirector, or run a script.
 */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash) return 'redirect URIs must not have a fragment';
  if (url.username || url.password) return 'redirect URIs must not carry credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.includes(url.hostname) ? undefined : `${uri}: plain http is allowed for loopback redirects only (127.0.0.1, [::1], localhost)`;
  const scheme = url.protocol.slice(0, -1);
  return scheme.includes('.') ? undefined : `${uri}: scheme ${scheme} is not allowed; use https, http on loopback, or a private-use scheme in reverse-domain form (com.example.app:)`;
}

/**
 * Exact string match, except native-app loopback redirects (RFC 8252 section 7.3): for
 * an `http` redirect on 127.0.0.1, [::1] or localhost the port may differ from the
 * registered one, everything else must match. A URI that fails `redirectUriProblem` is
 * never allowed, even when registered (by a version of the hub that did not check).
 */
export function redirectAllowed(requested: string, registered: readonly string[]): boolean {
  if (redirectUriProblem(requested)) return false;
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
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.includes(url.hostname)) return undefined;
  url.port = '';
  return url.href;
}
