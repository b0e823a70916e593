/** What `npm start` says, in one line, when it cannot listen where it is told to (`HOST`, `PORT`). */

/** The one line for a listen failure `err` on `host`:`port`: which port, and how to choose another. */
export function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  const another = `PORT=${port >= 65535 ? 4321 : port + 1} npm start`;
  switch (err.code) {
    case 'EADDRINUSE':
      return (
        `Lead Intake API cannot start: port ${port} on ${host} is already in use (by another server, or another npm start or npm run dev); ` +
        `stop that one, or choose another port: ${another}`
      );
    case 'EACCES':
      return `Lead Intake API cannot start: this user may not listen on port ${port} on ${host} (ports below 1024 need privileges); choose another: ${another}`;
    case 'EADDRNOTAVAIL':
      return `Lead Intake API cannot start: HOST ${host} is not an address of this machine; set HOST to one of its own (such as HOST=127.0.0.1)`;
    default:
      return `Lead Intake API cannot start: cannot listen on ${host}:${port} (${err.message})`;
  }
}
