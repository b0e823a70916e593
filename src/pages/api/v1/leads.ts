// Served by the API's route table (src/http/routes.ts).
export { serveApiRoute as ALL } from '../../../http/routes.ts';
export const prerender = false;
