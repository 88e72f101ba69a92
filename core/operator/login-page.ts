import { escapeHtml } from './page.js';

export interface LoginFormContext {
  /** Where the form posts: the login route under the hub's prefix. */
  action: string;
  /** The hidden CSRF field. */
  csrfField: string;
  /** The page to go back to once logged in. */
  returnTo: string | undefined;
  error?: string;
}

/** The body of the login page: the hub password, for any page that needs the operator. */
export function loginFormBody({ action, csrfField, returnTo, error }: LoginFormContext): string {
  const next = returnTo === undefined ? '' : `<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">`;
  return `<p>This page is for the operator of this hub. Log in with the hub password${returnTo === undefined ? '' : ` to open <code>${escapeHtml(returnTo)}</code>`}.</p>${
    error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''
  }
<form method="post" action="${escapeHtml(action)}">${csrfField}${next}
<label for="password">Hub password</label><input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button type="submit" class="primary">Log in</button></form>`;
}
