/**
 * Values of the running configuration that prerendered pages state, such as how long leads are
 * kept. A page built once is served under any configuration: the build writes a marker where the
 * value goes, and the server puts the running value in at start-up (with the running origin,
 * `src/server/static-files.ts`). Under `astro dev`, which renders every page on demand, the
 * component writes the value itself.
 */
import type { Config } from '../config.ts';

/** Each value a page may state, from the configuration. */
export const CONFIGURED = {
  leadsRetentionDays: (config: Pick<Config, 'leadsRetentionDays'>) => config.leadsRetentionDays.toLocaleString('en-US'),
} as const;

export type ConfiguredName = keyof typeof CONFIGURED;

/** The marker a built page carries in place of a value. */
export const configuredMarker = (name: ConfiguredName) => `@@configured:${name}@@`;

/** `text` with every marker replaced by the value of `config`. */
export function fillConfigured(text: string, config: Pick<Config, 'leadsRetentionDays'>): string {
  return text.replace(/@@configured:(\w+)@@/g, (marker, name: string) =>
    Object.hasOwn(CONFIGURED, name) ? CONFIGURED[name as ConfiguredName](config) : marker,
  );
}
