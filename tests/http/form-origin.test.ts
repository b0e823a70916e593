/**
 * Which addresses the forms are accepted from, in process through the front door the server uses
 * (`answerOnDemand`), on a real SQLite store: with `SITE_URL` unset, whichever loopback name a
 * person typed (`localhost`, `127.0.0.1`, `[::1]`) at the server's port, as under `npm run dev`;
 * with it set, its origin alone. A form sent from elsewhere is refused in words that give the
 * address to use, and the request's log line names the origin it came from.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiContext } from '../../src/http/context.ts';
import { answerOnDemand } from '../../src/http/front-door.ts';
import { testApp, type TestApp } from '../support/app.ts';

let app: TestApp;
afterEach(() => app?.dispose());

/** Sends a form from `origin` to the quote page's action; `reached` says whether the action ran. */
async function sendForm(origin: string, path = '/quote?_action=quote') {
  const url = new URL(path, app.services.config.siteUrl);
  const request = new Request(url, {
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'name=Ada',
  });
  const logNotes: { refusedOrigin?: string } = {};
  const locals: ApiContext = { services: app.services, request: { id: randomUUID(), clientAddress: '192.0.2.7', host: url.host, logNotes } };
  let reached = false;
  const response = await answerOnDemand(request, url, locals, app.composition.office, async () => ((reached = true), new Response('the action')), {
    requestIdSent: false,
  });
  return { response, reached, logNotes };
}

describe('the forms under npm start with SITE_URL unset', () => {
  it('are accepted from every loopback name at the server port', async () => {
    app = await testApp({ env: { PORT: '4601' } });
    for (const origin of ['http://localhost:4601', 'http://127.0.0.1:4601', 'http://[::1]:4601']) {
      const sent = await sendForm(origin);
      expect(sent.reached, origin).toBe(true);
      expect(sent.logNotes).toEqual({});
    }
  });

  it('are refused from another port or host, in words that give the address to open, and the log line names the origin', async () => {
    app = await testApp({ env: { PORT: '4601' } });
    for (const origin of ['http://127.0.0.1:4602', 'http://evil.example.com:4601']) {
      const sent = await sendForm(origin);
      expect(sent.reached).toBe(false);
      expect(sent.response.status).toBe(403);
      expect(await sent.response.text()).toBe(
        'This form can only be sent from this site, at http://localhost:4601. Nothing was sent. Open http://localhost:4601 in your browser and send it again from there.\n',
      );
      expect(sent.logNotes).toEqual({ refusedOrigin: origin });
    }
  });
});

describe('the forms with SITE_URL set', () => {
  it('are accepted from its origin alone: a loopback name is refused', async () => {
    app = await testApp({ env: { SITE_URL: 'https://www.example-cleaning.com', PORT: '4601' } });
    expect((await sendForm('https://www.example-cleaning.com')).reached).toBe(true);
    const refused = await sendForm('http://127.0.0.1:4601');
    expect(refused.response.status).toBe(403);
    expect(await refused.response.text()).toContain('at https://www.example-cleaning.com. Nothing was sent.');
  });
});
