// Every other path under /api/: a 404 problem from the API's route table (src/http/routes.ts).
export { serveApiRoute as ALL } from '../../http/routes.ts';
export const prerender = false;
