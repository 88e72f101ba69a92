import { createHash } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { LoginRefusal } from './login-throttle.js';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#111}
h1{font-size:1.3rem}input,button{font:inherit;padding:.6rem;width:100%;box-sizing:border-box;margin:.3rem 0}
button{cursor:pointer}.deny{background:#eee}.error{color:#a00}code{word-break:break-all}.logout{margin-top:2rem}.logout button{width:auto}`;
/** Added for pages that show tables (the status page): wider, and one card per row on a phone. */
const WIDE_STYLE = `body{max-width:72rem}h1{font-size:1.6rem}h2{font-size:1.2rem}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #ccc;vertical-align:top}
th{background:#f3f3f3}.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.bad{color:#a00;font-weight:600}.ok{color:#060}
[role=alert]{border:2px solid #a00;background:#fff4f4;padding:.6rem 1rem;border-radius:.3rem}
.primary{display:inline-block;background:#1a56db;color:#fff;border:0;border-radius:.3rem;padding:.6rem 1.2rem;text-decoration:none;font-weight:600}
.primary:focus{outline:3px solid #f59e0b}nav{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;margin:1rem 0}
@media (max-width:40rem){table,tbody,tr,td,tbody th{display:block}thead{position:absolute;left:-9999px}tr{border:1px solid #ccc;border-radius:.3rem;margin:.6rem 0;padding:.3rem}
td{border:0;padding:.2rem .4rem}td.num{text-align:left}td::before{content:attr(data-label) ": ";font-weight:600}}
.actions form{display:inline-block;margin:0 .3rem .3rem 0}.actions button{width:auto;padding:.3rem .7rem;margin:0}.notice{border:2px solid #060;background:#f2fbf2;padding:.6rem 1rem;border-radius:.3rem}`;
const hashOf = (style: string): string => createHash('sha256').update(style).digest('base64');

/** No scripts, no framing, nothing loaded from anywhere; the stylesheets are pinned by hash. */
const CSP = `default-src 'none'; style-src 'sha256-${hashOf(STYLE)}' 'sha256-${hashOf(WIDE_STYLE)}'; frame-ancestors 'none'; base-uri 'none'`;

export interface PageOptions {
  /** Tables: the wider layout, one card per row on a narrow screen. */
  wide?: boolean;
  /** The page reloads itself this often (a meta refresh: no script needed). */
  refreshSeconds?: number;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The frame of every page the hub serves to a person (the approval page, the operator
 * pages): one pinned stylesheet, no scripts, never framed, never cached.
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string, options: PageOptions = {}): FastifyReply {
  const head = `${options.refreshSeconds === undefined ? '' : `<meta http-equiv="refresh" content="${Math.max(1, Math.round(options.refreshSeconds))}">`}<title>${escapeHtml(
    title,
  )}</title><style>${STYLE}</style>${options.wide ? `<style>${WIDE_STYLE}</style>` : ''}`;
  return (
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', CSP)
      .header('x-frame-options', 'DENY')
      .header('x-content-type-options', 'nosniff')
      // Not no-referrer: under it a browser sends `Origin: null` with the page's own form posts,
      // which the operator service then cannot tell from a post by an opaque origin.
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-store').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
${head}</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`)
  );
}

const REFUSED_LOGINS: Record<LoginRefusal, { status: number; title: string; text: string }> = {
  throttled: { status: 429, title: 'Too many attempts', text: 'Too many wrong passwords from this address. Try again later.' },
  busy: { status: 429, title: 'One moment', text: 'Another password from this address is being checked. Try again in a moment.' },
  unavailable: { status: 503, title: 'Cannot check the password', text: 'The hub cannot check passwords right now: its store does not answer. Try again later.' },
};

/** The answer to a password the throttle did not let through, with Retry-After. */
export function loginRefusedPage(reply: FastifyReply, refusal: LoginRefusal, retryAfterSeconds: number): FastifyReply {
  const { status, title, text } = REFUSED_LOGINS[refusal];
  return sendPage(reply.header('retry-after', String(retryAfterSeconds)), status, title, `<p role="alert">${text}</p>`);
}

/**
 * A route's error handler for the pages people use: a request its schema refuses is
 * answered with `page`, never JSON for a person to read; any other error goes on to the
 * plugin's handler.
 */
export function pageWhenRefused(page: (reply: FastifyReply, error: FastifyError) => FastifyReply) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (!error.validation) throw error;
    return page(reply, error);
  };
}
