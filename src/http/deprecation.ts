/** The deprecated `/api/leads` alias: the headers on every one of its answers (RFC 9745, RFC 8594), made once per configuration. */
import type { Config } from '../config/config.ts';
import { serviceLinks } from '../service-facts.ts';

type AliasConfig = Pick<Config, 'siteUrl' | 'leadsDeprecationDate' | 'leadsSunsetDate'>;
const made = new WeakMap<AliasConfig, Readonly<Record<string, string>>>();

/** The headers of every response of the deprecated `/api/leads` alias. */
export function aliasHeaders(config: AliasConfig): Readonly<Record<string, string>> {
  let headers = made.get(config);
  if (!headers) {
    const links = serviceLinks(config.siteUrl);
    headers = Object.freeze({
      Deprecation: `@${Math.floor(config.leadsDeprecationDate.getTime() / 1000)}`,
      Link: `<${links.leads}>; rel="successor-version", <${links.deprecationPolicy}>; rel="deprecation"; type="text/html"`,
      ...(config.leadsSunsetDate && { Sunset: config.leadsSunsetDate.toUTCString() }),
    });
    made.set(config, headers);
  }
  return headers;
}
