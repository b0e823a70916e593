import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, V1_LAUNCH_DATE } from '../../src/config/config.ts';

describe('loadConfig', () => {
  it('has the contract defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      siteUrl: 'http://localhost:4321',
      host: 'localhost',
      port: 4321,
      database: { kind: 'sqlite', path: './data/leads.sqlite', groupCommit: true },
      redisUrl: undefined,
      trustProxy: undefined,
      leadsSunsetDate: undefined,
    });
    expect(c.leadsDeprecationDate.toISOString()).toBe(new Date(V1_LAUNCH_DATE).toISOString());
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('without SITE_URL, names the port it listens on, so that a local start on another port links to itself', () => {
    expect(loadConfig({ PORT: '4601' }).siteUrl).toBe('http://localhost:4601');
    expect(loadConfig({ PORT: '4601', SITE_URL: 'https://www.example-cleaning.com' }).siteUrl).toBe('https://www.example-cleaning.com');
  });

  it('without SITE_URL, refuses a HOST other machines can reach, whose links would name localhost; a loopback HOST is fine', () => {
    for (const host of ['localhost', '127.0.0.1', '::1']) expect(loadConfig({ HOST: host, PORT: '4601' }).siteUrl).toBe('http://localhost:4601');
    for (const host of ['0.0.0.0', '::', '10.0.0.11', 'www.example.com'])
      expect(() => loadConfig({ HOST: host }), host).toThrow(`SITE_URL: must be set when HOST (${host}) lets other machines connect`);
    expect(loadConfig({ HOST: '0.0.0.0', SITE_URL: 'https://www.example-cleaning.com' }).host).toBe('0.0.0.0');
  });

  it('names every invalid variable', () => {
    const attempt = () =>
      loadConfig({ PORT: 'eighty', SITE_URL: 'not a url', TRUST_PROXY: '10.0.0.0/8, nonsense', LEADS_SUNSET_DATE: 'soon', DATABASE_URL: 'mysql://x' });
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

  it('refuses ENVIRONMENT=production on an http:// origin, and knows no other environment', () => {
    expect(() => loadConfig({ ENVIRONMENT: 'production', SITE_URL: 'http://leads.example.com' })).toThrow(/ENVIRONMENT: production needs an https SITE_URL/);
    expect(() => loadConfig({ ENVIRONMENT: 'staging' })).toThrow(/ENVIRONMENT must be production or test/);
    expect(loadConfig({ ENVIRONMENT: 'production', SITE_URL: 'https://leads.example.com' }).environment).toBe('production');
  });

  it('selects PostgreSQL for a postgres:// DATABASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://127.0.0.1/test' }).database).toEqual({ kind: 'postgres', url: 'postgres://127.0.0.1/test' });
  });

  describe("the office's e-mail", () => {
    const mail = { OFFICE_EMAIL: 'office@example.com, owner@example.com', MAIL_FROM: 'Lead intake <leads@example.com>' };

    it('is off unless SMTP_URL is set', () => {
      expect(loadConfig({}).mail).toBeUndefined();
    });

    it('reads the server, the credentials (percent-decoded), the recipients and the sender', () => {
      expect(loadConfig({ SMTP_URL: 'smtp://leads%40example.com:p%3Ass@mail.example.com:2525', ...mail }).mail).toEqual({
        smtp: { host: 'mail.example.com', port: 2525, secure: false, requireTls: true, auth: { user: 'leads@example.com', pass: 'p:ss' } },
        office: ['office@example.com', 'owner@example.com'],
        from: { name: 'Lead intake', address: 'leads@example.com' },
      });
    });

    it('uses TLS from the first byte for smtps:// (port 465), STARTTLS on 587 by default, and sends credentials in clear only to this machine', () => {
      expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com', ...mail }).mail?.smtp).toMatchObject({ port: 465, secure: true, requireTls: false });
      expect(loadConfig({ SMTP_URL: 'smtp://mail.example.com', ...mail }).mail?.smtp).toMatchObject({
        port: 587,
        secure: false,
        requireTls: false,
        auth: undefined,
      });
      expect(loadConfig({ SMTP_URL: 'smtp://u:p@127.0.0.1:25', ...mail }).mail?.smtp).toMatchObject({ requireTls: false });
      expect(loadConfig({ SMTP_URL: 'smtp://u:p@[::1]:25', ...mail }).mail?.smtp).toMatchObject({ host: '::1', requireTls: false });
    });

    it('names each bad or missing variable, and never repeats SMTP_URL, which may hold a password', () => {
      const message = (env: Record<string, string>) => {
        try {
          loadConfig(env);
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          return (err as Error).message;
        }
        throw new Error('accepted');
      };
      const bad = message({
        SMTP_URL: 'https://user:hunter2-secret@mail.example.com',
        OFFICE_EMAIL: 'office at example.com',
        MAIL_FROM: 'Leads <not an address>',
      });
      expect(bad).toMatch(/SMTP_URL: must be smtp:/);
      expect(bad).toMatch(/OFFICE_EMAIL: must be/);
      expect(bad).toMatch(/MAIL_FROM: must be/);
      expect(bad).not.toContain('hunter2');
      expect(message({ SMTP_URL: 'smtp://user:hunter2-secret@mail.example.com:0', ...mail })).not.toContain('hunter2');
      expect(message({ SMTP_URL: 'smtp://user:%zz@mail.example.com', ...mail })).toMatch(/SMTP_URL/);
      const missing = message({ SMTP_URL: 'smtp://mail.example.com' });
      expect(missing).toMatch(/OFFICE_EMAIL: is needed/);
      expect(missing).toMatch(/MAIL_FROM: is needed/);
      expect(message({ OFFICE_EMAIL: 'office@example.com' })).toMatch(/OFFICE_EMAIL: is set, but SMTP_URL is not/);
    });
  });

  describe('scheduled backups', () => {
    it('are off unless BACKUP_DIR is set, and default to every 24 hours, keeping 14', () => {
      expect(loadConfig({}).backups).toBeUndefined();
      expect(loadConfig({ BACKUP_DIR: '/var/lib/lead-intake/backups' }).backups).toEqual({ dir: '/var/lib/lead-intake/backups', intervalHours: 24, keep: 14 });
      expect(loadConfig({ BACKUP_DIR: 'b', BACKUP_INTERVAL_HOURS: '6', BACKUP_KEEP: '28' }).backups).toEqual({ dir: 'b', intervalHours: 6, keep: 28 });
    });

    it('name what is wrong: a bad number, a setting without BACKUP_DIR, or PostgreSQL, which has its own tools', () => {
      expect(() => loadConfig({ BACKUP_DIR: 'b', BACKUP_INTERVAL_HOURS: '0', BACKUP_KEEP: 'all' })).toThrow(
        /BACKUP_INTERVAL_HOURS must be a whole number of hours from 1 to 8760[\s\S]*BACKUP_KEEP must be a whole number/,
      );
      expect(() => loadConfig({ BACKUP_KEEP: '3' })).toThrow(/BACKUP_KEEP: is set, but BACKUP_DIR is not/);
      expect(() => loadConfig({ BACKUP_DIR: 'b', DATABASE_URL: 'postgres://127.0.0.1/test' })).toThrow(
        /BACKUP_DIR: scheduled backups are of the SQLite store; back PostgreSQL up with its own tools \(pg_dump/,
      );
    });
  });
});
