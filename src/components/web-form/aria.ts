import type { FormResult } from '../../web-forms/submit.ts';

/** The message of `field`'s error in `result`, if the submission was refused for it. */
export const fieldError = (result: FormResult | undefined, field: string): string | undefined =>
  result?.kind === 'invalid' ? result.errors.find((e) => e.field === field)?.message : undefined;

/** The `aria-*` of a field's control: its hint and, in error, its message; `aria-invalid` when in error. */
export function fieldAria(name: string, hint: boolean, error: string | undefined): Record<string, string> {
  const hintId = hint ? `f-${name}-hint` : '';
  return {
    'data-describedby': hintId,
    ...((hintId || error) && { 'aria-describedby': [hintId, error ? `f-${name}-error` : ''].filter(Boolean).join(' ') }),
    ...(error && { 'aria-invalid': 'true' }),
  };
}
