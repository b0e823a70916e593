/**
 * Values of the running configuration that prerendered pages state, such as how long leads are
 * kept. A page built once is served under any configuration: the build writes a marker where the
 * value goes, and the server puts the running value in at start-up (with the running origin,
 * `src/server/static-files.ts`). Under `astro dev`, which renders every page on demand, the
 * component (`src/components/Configured.astro`) and the documents write the value itself.
 */
import type { Config } from '../config/config.ts';
import { ENVIRONMENT_RULE } from '../service-rules.ts';

type Stated = Pick<Config, 'leadsRetentionDays' | 'environment'>;

/** Each value a page or document may state, from the configuration. */
export const CONFIGURED = {
  leadsRetentionDays: (config: Stated) => config.leadsRetentionDays.toLocaleString('en-US'),
  /** `production` or `test`: what this deployment is for. */
  environment: (config: Stated) => config.environment,
  /** What that means for a caller, one sentence (`ENVIRONMENT_RULE`). */
  environmentRule: (config: Stated) => ENVIRONMENT_RULE[config.environment],
} as const;

export type ConfiguredName = keyof typeof CONFIGURED;

/** The marker a built page carries in place of a value. */
export const configuredMarker = (name: ConfiguredName) => `@@configured:${name}@@`;

/** `text` with every marker replaced by the value of `config`. */
export function fillConfigured(text: string, config: Stated): string {
  return text.replace(/@@configured:(\w+)@@/g, (marker, name: string) =>
    Object.hasOwn(CONFIGURED, name) ? CONFIGURED[name as ConfiguredName](config) : marker,
  );
}
