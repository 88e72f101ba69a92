/**
 * Posts the operator login form a page under `prefix` served (its CSRF field and cookie
 * sent back), as a browser without JavaScript does; the redirect is not followed.
 */
export function postOperatorLogin(base: string, prefix: string, page: Response, html: string, password: string): Promise<Response> {
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return fetch(`${base}${prefix}/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: page.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; '),
    },
    body: new URLSearchParams({ _csrf: csrf, password, return_to: `${prefix}/status` }).toString(),
    redirect: 'manual',
  });
}
