/** Setting a lead's status, with who and when: the status and its line in the audit trail in one transaction. */
import type { LeadStatus, OfficeInbox } from './store.ts';
import { STATUS_WORDS } from './audit-words.ts';

/** What became of a status change. */
export type StatusChange = { kind: 'changed'; from: LeadStatus } | { kind: 'no such lead' };

export async function changeStatus(
  inbox: Pick<OfficeInbox, 'setStatus'>,
  change: { reference: string; status: LeadStatus },
  actor: string,
  now = new Date(),
): Promise<StatusChange> {
  const { reference, status } = change;
  const changed = await inbox.setStatus(reference, status, actor, now, (from) => ({
    at: now,
    actor,
    action: 'set a status',
    detail: `Changed ${reference} from ${STATUS_WORDS[from]} to ${STATUS_WORDS[status]}.`,
  }));
  return changed ? { kind: 'changed', from: changed.from } : { kind: 'no such lead' };
}
