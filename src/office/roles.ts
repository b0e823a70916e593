/**
 * What each role of the office may open: staff work the leads (the inbox, its search and statuses,
 * suspected spam and its release); the pages that export every customer, delete people on request
 * or show the audit trail are an owner's. Checked in one place, the office guard, and shown in the
 * menu, so that staff are not offered what they cannot open.
 */
import type { OfficeRole } from './store.ts';

/**
 * The pages staff work in: the inbox, its search, a lead's status, notes and owner (one form: work), suspected spam, a
 * held change. Any page not an owner's is open to staff: this list is what a new page is checked
 * against (`office-roles.test.ts`), so that none is left open by being forgotten.
 */
const STAFF_PAGES: readonly string[] = [
  '/office',
  '/office/search',
  '/office/lead',
  '/office/status',
  '/office/note',
  '/office/take',
  '/office/work',
  '/office/attempt',
  '/office/spam',
  '/office/held',
  '/office/sign-in',
  '/office/sign-out',
];

/** An owner's pages, and what each is for, as a member of staff who opens one reads it. */
const OWNERS_PAGES: ReadonlyArray<[path: string, what: string]> = [
  ['/office/export', 'Exporting the leads'],
  ['/office/export.csv', 'Exporting the leads'],
  ['/office/delete', 'Deleting a person’s details on request'],
  ['/office/system', 'The System page, with what the office did'],
];

/** A path as the routes match it: decoded, repeated slashes as one, no slash at its end, any case. */
function routed(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not valid percent-encoding: matched as it is.
  }
  return decoded
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/$/, '$1')
    .toLowerCase();
}

/** Whether an account of `role` may open `path`; when not, what the page is for. */
export function mayOpen(role: OfficeRole, path: string): { allowed: true } | { allowed: false; what: string } {
  if (role === 'owner') return { allowed: true };
  const asked = routed(path);
  const page = OWNERS_PAGES.find(([p]) => asked === p);
  // A staff page, or no such page (the office's own "not found" answers): a test keeps every page in one of the two lists.
  return page ? { allowed: false, what: page[1] } : { allowed: true };
}

/** Every office page by role: what the test that keeps each page in one list reads. */
export const OFFICE_PAGES = { staff: STAFF_PAGES, owners: OWNERS_PAGES.map(([p]) => p) } as const;

/** A role in the office's words. */
export const ROLE_WORDS: Record<OfficeRole, string> = { owner: 'an owner', staff: 'staff' };

/** What a member of staff reads on an owner's page, and what to do. */
export const ownersOnly = (what: string, email: string): string =>
  `${what} is for the company’s owners only: it shows or removes every customer’s details. You are signed in as ${email}, ` +
  'a member of staff: you can work the leads in the inbox and in suspected spam. If this needs doing, ask an owner.';
