/** Starting the server as a person does: it says where it serves, without SITE_URL it links to its own port, and its store is its own. */
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call } from '../support/http.ts';
import { freePort, startServer } from '../support/server.ts';

describe('npm start', () => {
  it('says in one line where the site is served and what it runs on, and links to its own port when SITE_URL is not set; the store file is owner-only', async () => {
    const port = await freePort();
    const server = await startServer({ env: { PORT: String(port), SITE_URL: '' } });
    try {
      // Written beside the JSON log's "listening" line, on the other stream: it may come a moment later.
      for (let i = 0; i < 100 && server.said.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(server.said).toEqual([
        `Lead Intake API: the site is at http://localhost:${port} (listening on 127.0.0.1:${port}); leads are kept in the SQLite file ${server.databaseUrl.slice('file:'.length)}, rate limits counted in this process; no office e-mail (SMTP_URL is not set); no scheduled backups (BACKUP_DIR is not set).`,
      ]);
      // The store holds every customer's details: its owner's alone, and so are its -wal and -shm.
      await call(`${server.url}/api/v1`);
      const store = server.databaseUrl.slice('file:'.length);
      for (const file of [store, `${store}-wal`, `${store}-shm`]) expect(statSync(file).mode & 0o777, file).toBe(0o600);
      const status = await call(`${server.url}/api/v1`);
      const links = JSON.stringify(status.json);
      expect(links).toContain(`http://localhost:${port}/api/v1/leads`);
      expect(links).not.toContain('localhost:4321');
      expect(await call(`${server.url}/llms.txt`).then((r) => r.text)).toContain(`http://localhost:${port}/openapi.json`);
    } finally {
      await server.dispose();
    }
  });
});
