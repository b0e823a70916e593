import { describe, expect, it } from 'vitest';
import { Problem, problemResponse } from '../../src/problems/problem.ts';
import { PROBLEMS, PROBLEM_CODES } from '../../src/problems/registry.ts';

describe('problem responses', () => {
  it('carry every member the contract lists, with error equal to detail', async () => {
    const res = problemResponse(new Problem('validation_failed', '2 field problems found', { errors: [] }), {
      siteUrl: 'https://www.example-cleaning.com',
      requestId: '0f8fad5b-d9cb-469f-a165-70867728950e',
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      type: 'https://www.example-cleaning.com/developers/errors#validation_failed',
      title: PROBLEMS.validation_failed.title,
      status: 422,
      detail: '2 field problems found',
      instance: 'urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e',
      code: 'validation_failed',
      resolution: PROBLEMS.validation_failed.resolution,
      error: '2 field problems found',
      errors: [],
    });
  });

  it('adds the headers a problem carries (Retry-After, Allow)', () => {
    const res = problemResponse(new Problem('method_not_allowed', 'x', {}, { Allow: 'POST' }), { siteUrl: 'http://x', requestId: 'r' });
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('has a registry whose resolutions are one sentence and whose titles carry no "Error:" prefix', () => {
    for (const code of PROBLEM_CODES) {
      const p = PROBLEMS[code];
      expect(p.resolution.trim().split(/(?<=\.)\s+/), code).toHaveLength(1);
      expect(p.title, code).not.toMatch(/^error/i);
      expect(code, code).toMatch(/^[a-z_]+$/);
    }
  });
});
