/** How the page that answers a plain (no JavaScript) form POST states the outcome in HTTP. */
import type { AstroGlobal } from 'astro';
import type { actions } from 'astro:actions';
import type { FormResult } from './submit.ts';

/**
 * For a form's page: the result of its action on this request (none on a first visit), with the
 * page's status and headers set to state it.
 */
export function formPageResult(page: AstroGlobal, action: typeof actions.submitQuote | typeof actions.submitContact): FormResult | undefined {
  const answered = page.getActionResult(action);
  const result = answered?.error ? actionFailure(answered.error.code) : answered?.data;
  const { status, headers } = pageStatus(result);
  page.response.status = status;
  for (const [name, value] of Object.entries(headers)) page.response.headers.set(name, value);
  return result;
}

/** The status and headers of the page showing `result` (a first visit is a plain 200). */
export function pageStatus(result: FormResult | undefined): { status: number; headers: Record<string, string> } {
  switch (result?.kind) {
    case undefined:
    case 'received':
    case 'duplicate':
      return { status: 200, headers: {} };
    case 'invalid':
      return { status: 422, headers: {} };
    case 'already_sent':
    case 'page_changed':
      return { status: 409, headers: {} };
    case 'rate_limited':
      return { status: 429, headers: { 'Retry-After': String(result.retryAfterSeconds) } };
    case 'unavailable':
      return { status: 503, headers: { 'Retry-After': String(result.retryAfterSeconds) } };
    case 'failed':
      return { status: 500, headers: {} };
  }
}

/** The result an Astro Action error stands for (the request never reached the form's handler: a body too large, say). */
export function actionFailure(code: string): FormResult {
  const message =
    code === 'CONTENT_TOO_LARGE'
      ? 'What you wrote is too long to send. Please shorten your notes or message and send it again. Nothing was saved.'
      : 'The form could not be sent. Please reload the page and try again. Nothing was saved.';
  return { kind: 'failed', message, values: {}, consent: false };
}
