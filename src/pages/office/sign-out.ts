/** Signing out: the session ends in the store (the cookie is worth nothing after), and the cookie is removed. */
import type { APIRoute } from 'astro';
import { sessionCookie, signOut } from '../../office/session.ts';

export const prerender = false;

export const POST: APIRoute = async ({ locals }) => {
  const { services, office } = locals;
  if (office) await signOut(office.powers.sessions, office.token, office.user);
  return new Response(null, {
    status: 303,
    headers: { Location: '/office/sign-in?signed-out', 'Set-Cookie': sessionCookie(undefined, services.config.siteUrl.startsWith('https:')) },
  });
};
