/** The company's two web forms: which lead form each sends, its page, and the content entry of its words. */
export type WebForm = 'quote' | 'support';

export const WEB_FORMS = {
  quote: { path: '/quote', entry: 'quote', collection: 'quoteForm' },
  support: { path: '/contact', entry: 'contact', collection: 'contactForm' },
} as const satisfies Record<WebForm, { path: string; entry: string; collection: string }>;
