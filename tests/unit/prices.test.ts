/** The price guide's arithmetic and words (`src/prices.ts`), shared by the quote page, its script and the documents. */
import { describe, expect, it } from 'vitest';
import { guideSentence, priceGuide, rangeFor, sizeOf, startingPrice } from '../../src/prices.ts';

const SERVICES = ['Standard clean', 'Deep clean', 'Window clean'];
const guide = priceGuide(SERVICES, {
  'Deep clean': { '2': { from: 230, to: 310 }, studio: { from: 160, to: 220 } },
  'Standard clean': { '5+': { from: 230, to: 320 }, '1': { from: 110, to: 150 } },
})!;

describe('the price guide', () => {
  it("keeps the form's order of cleanings and the sizes smallest first, with each cleaning's whole range; leaves out a cleaning without prices", () => {
    expect(guide.map((p) => [p.service, p.from, p.to, p.bySize.map((s) => s.bedrooms)])).toEqual([
      ['Standard clean', 110, 320, ['1', '5+']],
      ['Deep clean', 160, 310, ['studio', '2']],
    ]);
    expect(priceGuide(SERVICES, undefined)).toBeUndefined();
    expect(priceGuide(SERVICES, {})).toBeUndefined();
  });

  it('starts at the lowest "from" of every cleaning, which the home page states; none without a guide', () => {
    expect(startingPrice(guide)).toBe(110);
    expect(startingPrice(undefined)).toBeUndefined();
  });

  it("reads the form's bedrooms as a size of home: a studio, 1 to 4, 5 or more; nothing for not sure", () => {
    expect(['0', 'Studio', '1', '4', '5', '12', 'more', 'not sure', ''].map(sizeOf)).toEqual([
      'studio',
      'studio',
      '1',
      '4',
      '5+',
      '5+',
      '5+',
      undefined,
      undefined,
    ]);
  });

  it('gives the range for a size priced, and the whole range for a size not priced or not known', () => {
    expect(rangeFor(guide, 'Deep clean', '2')).toEqual({ from: 230, to: 310, size: '2' });
    expect(rangeFor(guide, 'Deep clean', '3')).toEqual({ from: 160, to: 310 });
    expect(rangeFor(guide, 'Deep clean', undefined)).toEqual({ from: 160, to: 310 });
    expect(rangeFor(guide, 'Window clean', '2')).toBeUndefined();
  });

  it('says it in a sentence for what is chosen so far', () => {
    expect(guideSentence(guide, '', '2')).toBe('Choose the kind of cleaning, and the number of bedrooms, to see a starting price.');
    expect(guideSentence(guide, 'Deep clean', '')).toBe('Deep clean: from $160 to $310, by the size of the home. Choose the bedrooms to see yours.');
    expect(guideSentence(guide, 'Deep clean', 'not sure')).toBe('Deep clean: from $160 to $310, by the size of the home.');
    expect(guideSentence(guide, 'Deep clean', '0')).toBe('Deep clean for a studio: from $160 to $220.');
    expect(guideSentence(guide, 'Standard clean', 'more')).toBe('Standard clean for 5 bedrooms or more: from $230 to $320.');
    expect(guideSentence(guide, 'Window clean', '2')).toBe('For this cleaning, the office gives you a price when it gets back to you.');
  });
});
