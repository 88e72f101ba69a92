import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';

const FORM = 'application/x-www-form-urlencoded';

/**
 * Gives this encapsulation context the hub's own form parser. An embedding app that
 * registered @fastify/formbody (or any form parser) at its root hands it down to every
 * context inside it, and registering formbody again there throws
 * FST_ERR_CTP_ALREADY_PRESENT; the inherited one is dropped from this context only (each
 * context has its own copy of the parsers), so the app's routes keep theirs and the hub's
 * forms are read the same way whatever the app chose.
 */
export async function ownFormParser(app: FastifyInstance): Promise<void> {
  if (app.hasContentTypeParser(FORM)) app.removeContentTypeParser(FORM);
  await app.register(formbody);
}
