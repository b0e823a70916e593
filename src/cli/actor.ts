/** Who ran a command, for the audit trail: the system user, when the system knows one. */
import { userInfo } from 'node:os';

export function commandLineActor(): string {
  try {
    return `command line (${userInfo().username})`;
  } catch {
    return 'command line';
  }
}
