import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Checks the caller of an MCP request. The oauth-as plugin provides one; without it the
 * endpoints are open (allowed only on a loopback bind). `resource` is the absolute URL
 * of the endpoint the request arrived on (RFC 8707 audience).
 */
export interface RequestAuthenticator {
  /** The caller, or undefined when a 401/403 was already sent on `reply`. */
  authenticate(request: FastifyRequest, reply: FastifyReply, resource: string): Promise<AuthInfo | undefined>;
}
