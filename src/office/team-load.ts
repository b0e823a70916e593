/**
 * The team's load (issue 55, item 4), as the office's ports take it (`store.ts` extends these): each
 * account's figures, "Mine" as the open leads most urgent first, and a lead given to someone marked
 * for them until they open its own page or act on it (kept per account, erased with the lead).
 */

/** One account's load: the leads it holds that wait (status new), how many of those are late, and how many it first contacted from a moment on. */
export interface PersonLoad {
  id: string;
  email: string;
  waiting: number;
  late: number;
  firstContacted: number;
}

/** The inbox's query, for the team's work. */
export interface TeamInboxQuery {
  /**
   * The open leads alone (new or contacted, not done), most urgent first: the waiting ones by their answer-by instant, then
   * those contacted, newest first ("Mine").
   */
  open?: boolean;
  /** The signed-in account (its e-mail): each lead given to it by another says so (`givenBy`). */
  account?: string;
}

/** A lead as the inbox shows it, for the team's work. */
export interface GivenLead {
  /** Given to the account that asked (`TeamInboxQuery.account`) by another, who and when: until they open its own page or act on it. */
  givenBy?: { by: string; at: Date };
}

/** What the inbox is told of a lead's own page. */
export interface OpenedLead {
  /** The lead with `reference` was opened on its own page by `account`: it is no longer marked as given to them. */
  openedLead(reference: string, account: string): Promise<void>;
}

/** The team's load at a glance. */
export interface TeamLoadRead {
  /**
   * Every account's load (`PersonLoad`), by e-mail: late means past its answer-by at `now`; first contacted from `since` on
   * (today's start). One query, each figure an index's range (`leads_held_waiting`, `leads_first_contacts`: migration 22).
   */
  teamLoad(since: Date, now: Date): Promise<PersonLoad[]>;
}
