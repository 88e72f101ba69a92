import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifySchemaValidationError, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { Type } from 'typebox';
import { OAuthError, type OAuthErrorName } from './errors.js';
import { pointerToPath } from '../../core/plugin/index.js';

/** The plugin's Fastify instance as its routes see it: request parts typed from their TypeBox schemas. */
export type Routes = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** The request part a schema refused. */
type Part = NonNullable<FastifyError['validationContext']>;

/** A URL-valued parameter (redirect URIs, resources, metadata-document client ids). */
export const UrlParameter = Type.String({ maxLength: 2000 });
/** A secret the hub issued (codes, tokens, client secrets, CSRF tokens): about 50 characters, never near this bound. */
export const SecretParameter = Type.String({ maxLength: 512 });
/** What a client says of itself and the approval page shows (its name, its page): as long as a registration may give. */
export const CLIENT_TEXT_MAX = 200;
/** A short keyword (grant types, methods, hints). */
export const KeywordParameter = Type.String({ maxLength: 200 });

/**
 * Routes of this plugin declare their request schemas and Fastify validates them before a
 * handler runs. The validator is TypeBox's compiler (the provider's), set in this plugin's
 * own context: the schemas are TypeBox's, checked the way the rest of the hub checks
 * TypeBox values, and an app that embeds the hub with its own Ajv options (coercion,
 * removal of properties) cannot change what an OAuth request must look like. Nothing is
 * coerced or removed: a parameter sent twice arrives as an array and is refused (RFC 6749
 * section 3.1), and parameters a schema does not name are left alone and ignored, as OAuth
 * asks of unknown parameters. A refused request becomes an OAuth `invalid_request`;
 * routes that answer otherwise say so themselves.
 */
export function typeBoxRoutes(app: FastifyInstance): Routes {
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  app.setSchemaErrorFormatter(refusedAs('invalid_request'));
  return app.withTypeProvider<TypeBoxTypeProvider>();
}

/** A schema error formatter that makes a refused request the OAuth error `code` (status 400). */
export function refusedAs(code: OAuthErrorName): (errors: FastifySchemaValidationError[], part: Part) => OAuthError {
  return (errors, part) => new OAuthError(code, describeRefusal(errors, part));
}

/** The first thing wrong with a request part, in words a client developer can act on. */
export function describeRefusal(errors: readonly FastifySchemaValidationError[], part: Part): string {
  const [first] = errors;
  const missing = first?.keyword === 'required' ? (first.params.requiredProperties as string[] | undefined)?.[0] : undefined;
  if (missing !== undefined) return `${missing} is required`;
  const where = pointerToPath(first?.instancePath ?? '') || `the ${part === 'querystring' ? 'query' : part}`;
  // A form or query parameter sent twice arrives as an array.
  if (first?.keyword === 'type' && first.params.type === 'string') return `${where} must be a string, given once`;
  return `${where} ${first?.message ?? 'is not valid'}`;
}
