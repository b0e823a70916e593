/** The `aria-*` of a field's control: its hint and, in error, its message; `aria-invalid` when in error. */
export function fieldAria(name: string, hint: boolean, error: string | undefined): Record<string, string> {
  const hintId = hint ? `f-${name}-hint` : '';
  return {
    'data-describedby': hintId,
    ...((hintId || error) && { 'aria-describedby': [hintId, error ? `f-${name}-error` : ''].filter(Boolean).join(' ') }),
    ...(error && { 'aria-invalid': 'true' }),
  };
}
