/**
 * GET /api/v1 in process: what kind of deployment this is, stated by configuration (`ENVIRONMENT`)
 * and by the origin, in the words every document uses (`ENVIRONMENT_RULE`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ENVIRONMENT_RULE, RULES } from '../../src/service-rules.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { call } from '../support/in-process.ts';
import { offer } from '../support/fixtures.ts';
import { AGENT_PRICE_NOTE, priceGuide } from '../../src/prices.ts';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.dispose();
  app = undefined;
});

async function status(env: Record<string, string> = {}) {
  app = await testApp({ env });
  const reply = await call(app, '/api/v1');
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
}

describe('GET /api/v1 says what this deployment is for', () => {
  it('an http:// origin is a test deployment, which takes no leads, real or trial', async () => {
    expect(await status()).toMatchObject({ environment: 'test', deployment: ENVIRONMENT_RULE.test });
  });

  it("an https:// origin is the company's own, taking real leads", async () => {
    expect(await status({ SITE_URL: 'https://www.example.com' })).toMatchObject({ environment: 'production', deployment: ENVIRONMENT_RULE.production });
  });

  it('ENVIRONMENT=test marks an https:// deployment as a test one', async () => {
    expect(await status({ SITE_URL: 'https://staging.example.com', ENVIRONMENT: 'test' })).toMatchObject({ environment: 'test' });
  });

  it('lists the service area: its towns and the ZIP codes it serves, and what happens outside it', async () => {
    const { serviceArea } = await status();
    expect(serviceArea.towns).toEqual(['Portland, Oregon', 'Vancouver, Washington']);
    expect(serviceArea.postalCodes).toEqual(expect.arrayContaining(['97201', '98660']));
    expect(serviceArea.outside).toBe(RULES.serviceArea);
  });

  it('publishes the starting prices with the services when the company has them (priceGuide), and nothing of them otherwise', async () => {
    expect(await status()).not.toHaveProperty('priceGuide');
    await app!.dispose();
    const prices = priceGuide(offer().services, { 'Deep clean': { studio: { from: 160, to: 220 }, '5+': { from: 400, to: 560 } } });
    app = await testApp({ overrides: { offer: { ...offer(), prices } } });
    const reply = await call(app, '/api/v1');
    expect(reply.json.priceGuide).toEqual({
      currency: 'USD',
      note: AGENT_PRICE_NOTE,
      services: [
        {
          service: 'Deep clean',
          from: 160,
          to: 560,
          bySize: [
            { bedrooms: 'studio', from: 160, to: 220 },
            { bedrooms: '5+', from: 400, to: 560 },
          ],
        },
      ],
    });
  });
});
