/** A line of the office's audit trail, as every office role writes it. */
import type { AuditNote } from '../leads/store.ts';

/** One thing the office did, as the audit trail keeps it: who, when, what, never a customer's details. */
export interface AuditEntry extends AuditNote {
  action:
    | 'signed in'
    | 'sign-in refused'
    | 'signed out'
    | 'exported'
    | 'deleted on request'
    | 'set a status'
    | 'released from spam'
    | 'marked not a customer'
    | 'put back in spam'
    | 'added a note'
    | 'recorded an attempt'
    | 'set the owner'
    | 'account added'
    | 'account removed';
}
