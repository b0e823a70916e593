/**
 * The people of the office benchmark's stores: quote requests with varied names, ZIP codes and
 * phone numbers (555-01xx only, example.com addresses), and a few "needles": people whose name,
 * phone number and reference occur once in the store, as the customer the office looks up.
 */

const FIRST = ['Ava', 'Ben', 'Cora', 'Dev', 'Elena', 'Farid', 'Grace', 'Hugo', 'Iris', 'Jon', 'Kira', 'Luis', 'Maya', 'Noor', 'Owen', 'Pia'];
const FRONT = ['Hal', 'Mor', 'Bren', 'Cas', 'Dun', 'Ell', 'Fair', 'Gar', 'Hart', 'Kel', 'Lind', 'Mar', 'Nor', 'Os', 'Ped', 'Rand'];
const BACK = ['ford', 'gren', 'ley', 'well', 'ton', 'wick', 'dale', 'mont', 'stead', 'holm', 'by', 'ridge', 'quist', 'acre', 'wood', 'vale'];
/** Area codes of the ordinary leads; the needles' (541) is used by nobody else. */
const AREAS = ['503', '971', '360', '206', '425'];
const ZIPS = ['97201', '97202', '97205', '97209', '97210', '97214', '97217', '97219', '97225', '97229'];
const SERVICES = ['Standard clean', 'Deep clean'];

/** A small deterministic generator, so that every build of a store holds the same people. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pick = <T>(list: readonly T[], r: () => number): T => list[Math.floor(r() * list.length)]!;
const phone = (area: string, line: number) => `(${area}) 555-01${String(line % 100).padStart(2, '0')}`;

/** The needles: a name found nowhere else (searched by a fragment of it), a phone number of its own. */
export const needle = (k: number) => ({ name: `Zelda Quixotewright${'abcdefghij'[k]}`, phone: phone('541', k), fragment: `xotewright${'abcdefghij'[k]}` });

/** The quote request of lead `i` (distinct from every other: its e-mail and notes carry `i`). */
export function quoteBody(i: number, r: () => number, who?: { name: string; phone: string }): Record<string, unknown> {
  return {
    name: who?.name ?? `${pick(FIRST, r)} ${pick(FRONT, r)}${pick(BACK, r)}`,
    phone: who?.phone ?? phone(pick(AREAS, r), Math.floor(r() * 100)),
    email: `customer.${i}@example.com`,
    bedrooms: String(1 + Math.floor(r() * 5)),
    bathrooms: pick(['1', '1.5', '2', '2.5', '3'], r),
    service: pick(SERVICES, r),
    postalCode: pick(ZIPS, r),
    notes: `Lead ${i}. ${pick(['Two cats; please use the side door.', 'Parking in the back.', 'Call before you come.', 'The oven too, please.'], r)}`,
    communicationsConsent: true,
    consentTimestamp: '2026-11-20T17:03:00Z',
    pageUrl: 'https://www.example-cleaning.com/quote',
  };
}
