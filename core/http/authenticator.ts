import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Checks the caller of an MCP request. The oauth-as plugin provides one; without it the
 * endpoints are open (allowed only on a loopback bind). `resource` is the absolute URL
 * of the endpoint the request arrived on (RFC 8707 audience).
 */
export interface RequestAuthenticator {
  /**
   * The caller, or undefined when a 401/403 was already sent on `reply`. A caller whose
   * credentials reach only some servers through `/hub` carries their names in
   * `extra[CALLER_SERVERS_KEY]` (an array of strings); the kernel hands them to the
   * meta-tools as `CallerRequest.servers` and holds `hub.servers.callTool` to them. A
   * promise only when the check has to wait (a lookup): it runs on every MCP request.
   */
  authenticate(request: FastifyRequest, reply: FastifyReply, resource: string): AuthInfo | undefined | Promise<AuthInfo | undefined>;
}

/** The key of `AuthInfo.extra` that limits a caller of `/hub` to some servers. */
export const CALLER_SERVERS_KEY = 'servers';

/**
 * The servers a caller may reach through `/hub`: undefined for all of them. A value the
 * kernel cannot read as names reaches none, so a mistaken authenticator fails closed.
 */
export function callerServers(auth: AuthInfo | undefined): readonly string[] | undefined {
  const servers = auth?.extra?.[CALLER_SERVERS_KEY];
  if (servers === undefined) return undefined;
  return Array.isArray(servers) && servers.every((name) => typeof name === 'string') ? servers : [];
}
