import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, V1_LAUNCH_DATE } from '../../src/config.ts';

describe('loadConfig', () => {
  it('has the contract defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ siteUrl: 'http://localhost:4321', host: 'localhost', port: 4321, database: { kind: 'sqlite', path: './data/leads.sqlite', groupCommit: true }, redisUrl: undefined, trustProxy: undefined, leadsSunsetDate: undefined });
    expect(c.leadsDeprecationDate.toISOString()).toBe(new Date(V1_LAUNCH_DATE).toISOString());
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('names every invalid variable', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', SITE_URL: 'not a url', TRUST_PROXY: '10.0.0.0/8, nonsense', LEADS_SUNSET_DATE: 'soon', DATABASE_URL: 'mysql://x' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (err) {
      for (const name of ['PORT', 'SITE_URL', 'TRUST_PROXY', 'LEADS_SUNSET_DATE', 'DATABASE_URL']) expect((err as Error).message).toContain(name);
    }
  });

  it('reduces SITE_URL to its origin and parses TRUST_PROXY into a block list', () => {
    const c = loadConfig({ SITE_URL: 'https://www.example-cleaning.com/', TRUST_PROXY: '10.0.0.0/8, ::1' });
    expect(c.siteUrl).toBe('https://www.example-cleaning.com');
    expect(c.trustProxy?.check('10.1.2.3', 'ipv4')).toBe(true);
    expect(c.trustProxy?.check('::1', 'ipv6')).toBe(true);
    expect(c.trustProxy?.check('11.0.0.1', 'ipv4')).toBe(false);
  });

  it('refuses an in-memory SQLite store, which would lose every lead on restart', () => {
    expect(() => loadConfig({ DATABASE_URL: 'file::memory:' })).toThrow(/DATABASE_URL/);
  });

  it('selects PostgreSQL for a postgres:// DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/test' }).database).toEqual({ kind: 'postgres', url: 'postgres://127.0.0.1/test' });
  });
});
