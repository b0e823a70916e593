/** The office's limits: sign-in attempts (`SIGN_IN_LIMITS`), and each account's changes a minute, whatever its sessions (`OFFICE_ACTIONS_PER_MINUTE`). */
import type { Config } from '../config/config.ts';
import { SIGN_IN_LIMITS, type SignInDeps } from '../office/session.ts';
import { createLimiter } from '../limiter/index.ts';
import type { RateLimiter } from '../limiter/rate-limiter.ts';

/** The office's limiters, and how to close them. */
export interface OfficeLimiters {
  signInLimits: SignInDeps['limits'];
  actionLimit: RateLimiter;
  close(): Promise<void>;
}

/** The office's limiters, where the configuration keeps counters (this process, or Redis). */
export function officeLimiters(config: Pick<Config, 'redisUrl' | 'officeActionsPerMinute'>): OfficeLimiters {
  const signIn = Object.fromEntries(
    (Object.keys(SIGN_IN_LIMITS) as Array<keyof typeof SIGN_IN_LIMITS>).map((name) => [
      name,
      createLimiter(config, { ...SIGN_IN_LIMITS[name], name: `sign-in:${name}` }),
    ]),
  ) as Record<keyof typeof SIGN_IN_LIMITS, ReturnType<typeof createLimiter>>;
  const actions = createLimiter(config, { points: config.officeActionsPerMinute, windowSeconds: 60, name: 'office:actions' });
  const handles = [...Object.values(signIn), actions];
  return {
    signInLimits: {
      client: signIn.client.limiter,
      accountFromClient: signIn.accountFromClient.limiter,
      account: signIn.account.limiter,
    },
    actionLimit: actions.limiter,
    close: async () => void (await Promise.all(handles.map((h) => h.close()))),
  };
}
