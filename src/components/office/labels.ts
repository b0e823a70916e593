/** The forms' field labels as the content editors wrote them (`content/forms/`), for the office's pages: one wording for both. */
import { getEntry } from 'astro:content';
import { WEB_FORMS, type WebForm } from '../../site/forms.ts';

export type FieldLabels = Record<WebForm, Record<string, string>>;

export async function fieldLabels(): Promise<FieldLabels> {
  const labels = async (form: WebForm) => {
    const entry = await getEntry(WEB_FORMS[form].collection, WEB_FORMS[form].entry);
    return Object.fromEntries(Object.entries(entry!.data.fields).map(([name, field]) => [name, field.label]));
  };
  return { quote: await labels('quote'), support: await labels('support') };
}
