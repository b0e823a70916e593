/**
 * Where the company cleans: the ZIP codes it serves, each with its town, as the editors list them
 * (`serviceArea` in `content/company.yaml`). A ZIP outside them is no error: the lead is taken, and
 * the caller and the office are told the home is outside the area the company usually serves.
 */

/** The towns served, in the editors' order, each with its 5-digit ZIP codes. */
export interface ServiceArea {
  towns: ReadonlyArray<{ town: string; postalCodes: readonly string[] }>;
}

/** The 5-digit ZIP of a ZIP or ZIP+4 (`97201-1234` is `97201`). */
export const zip5 = (postalCode: string) => postalCode.slice(0, 5);

/** The town a ZIP code is in, when the company serves it. */
export function townOf(area: ServiceArea, postalCode: string): string | undefined {
  const zip = zip5(postalCode);
  return area.towns.find((t) => t.postalCodes.includes(zip))?.town;
}

/** Whether the company serves the home at `postalCode`. */
export const inServiceArea = (area: ServiceArea, postalCode: string) => townOf(area, postalCode) !== undefined;

/** Every ZIP code served, in order: what `GET /api/v1` and the description publish. */
export const servedPostalCodes = (area: ServiceArea) => area.towns.flatMap((t) => t.postalCodes);
