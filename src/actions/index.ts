/**
 * The web forms' Astro Actions (`accept: 'form'`): a plain form POST to `/quote?_action=submitQuote`
 * without JavaScript, or `actions.submitQuote(formData)` from the page's script. Thin adapters:
 * the work is `submitWebForm` (`src/web-forms/submit.ts`), with the same rules as the API.
 */
import { defineAction } from 'astro:actions';
import { submitWebForm, type FormResult } from '../web-forms/submit.ts';
import { WEB_FORMS, type WebForm } from '../site/forms.ts';
import { formWords } from '../site/form-words.ts';

const submit = (form: WebForm) =>
  defineAction({
    accept: 'form',
    handler: async (data, context): Promise<FormResult | undefined> => {
      // Astro runs a form action for a POST to any page with `?_action=`: only the form's own page
      // (or the script's call to /_actions/) submits it.
      const path = context.url.pathname.replace(/\/$/, '');
      if (!path.startsWith('/_actions/') && path !== WEB_FORMS[form].path) return undefined;
      const { services, request, budget } = context.locals;
      return submitWebForm(data, await formWords(form), { services, request, budget, userAgent: context.request.headers.get('user-agent') });
    },
  });

export const server = {
  submitQuote: submit('quote'),
  submitContact: submit('support'),
};
