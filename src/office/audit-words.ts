/**
 * The audit trail in plain sentences, as the System page shows it. Each use case writes its line's
 * detail as a whole sentence ("Changed Q-P7RH-Q4 from New to Contacted."), never naming a customer;
 * a deletion on request puts `ERASED_LEAD` in place of the person's references. A line kept from
 * before (a detail that is not a sentence) is read as its action and its detail.
 */
import type { AuditEntry, LeadStatus } from './store.ts';

/** What stands in an audit line for the reference of a lead deleted on request since. */
export const ERASED_LEAD = 'a lead since deleted on request';

/** A status as the office reads it. */
export const STATUS_WORDS: Record<LeadStatus, string> = { new: 'New', contacted: 'Contacted', done: 'Done' };

/** The line of `entry` as a sentence. */
export function auditSentence(entry: Pick<AuditEntry, 'action' | 'detail'>): string {
  const detail = entry.detail.trim();
  if (/[.!?]$/.test(detail)) return detail;
  const action = entry.action.charAt(0).toUpperCase() + entry.action.slice(1);
  return `${action}${detail ? `: ${detail}` : ''}.`;
}
