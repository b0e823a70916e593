/**
 * The form's minimum fill time, set rather than raced: a test puts into the page's form a token as
 * if the page had been drawn at a time of its choosing (made with the server's own key, read from
 * its SQLite store, and keeping the token's key and wording version), so that a person's answers
 * are never caught however fast the browser fills them, and a spam program's are caught however
 * slowly a busy machine sends them.
 */
import { DatabaseSync } from 'node:sqlite';
import type { Page } from 'playwright-core';
import { issueFormToken } from '../../src/web-forms/token.ts';

/** The key the server at `databaseUrl` (a `file:` store) signs its form tokens with. */
function formTokenKey(databaseUrl: string): Buffer {
  const db = new DatabaseSync(databaseUrl.replace(/^file:/, ''), { readOnly: true, timeout: 60_000 });
  try {
    const row = db.prepare("SELECT value FROM secrets WHERE name = 'web-form-token'").get() as { value: Uint8Array } | undefined;
    if (!row) throw new Error('the server has drawn no form yet: open its page first');
    return Buffer.from(row.value);
  } finally {
    db.close();
  }
}

/** Makes the form on `page` (of the server whose store is `databaseUrl`) look drawn at `renderedAt` (ms since the epoch). */
export async function drawnAt(page: Page, databaseUrl: string, renderedAt: number): Promise<void> {
  const field = page.locator('input[name="formToken"]').first();
  const [form, , idempotencyKey, version] = (await field.inputValue()).split('.') as ['quote' | 'support', string, string, string];
  const token = issueFormToken(formTokenKey(databaseUrl), form, version === '-' ? undefined : version, renderedAt, idempotencyKey);
  await field.evaluate((input: HTMLInputElement, value) => (input.value = value), token);
}

/** As a person who took their time: drawn ten seconds ago, past the minimum fill time. */
export const filledAtLeisure = (page: Page, databaseUrl: string) => drawnAt(page, databaseUrl, Date.now() - 10_000);

/**
 * As a spam program: drawn, as far as the server can tell, a minute from now, so that however long
 * a busy machine takes to send it, it arrives before the minimum fill time has passed.
 */
export const sentAtOnce = (page: Page, databaseUrl: string) => drawnAt(page, databaseUrl, Date.now() + 60_000);
