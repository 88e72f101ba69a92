import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#111}
h1{font-size:1.3rem}input,button{font:inherit;padding:.6rem;width:100%;box-sizing:border-box;margin:.3rem 0}
button{cursor:pointer}.deny{background:#eee}.error{color:#a00}code{word-break:break-all}`;
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** No scripts, no framing, nothing loaded from anywhere; the one stylesheet is pinned by hash. */
const CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; frame-ancestors 'none'; base-uri 'none'`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The frame of every page the hub serves to a person (the approval page, the operator
 * pages): one pinned stylesheet, no scripts, never framed, never cached.
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CSP)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`);
}

/** The answer to a password attempt from an address with too many wrong ones. */
export function tooManyAttemptsPage(reply: FastifyReply, retryAfterSeconds: number): FastifyReply {
  return sendPage(reply.header('retry-after', String(retryAfterSeconds)), 429, 'Too many attempts', '<p>Too many wrong passwords from this address. Try again later.</p>');
}
