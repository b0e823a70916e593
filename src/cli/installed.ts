/**
 * `npm install`'s last word (the postinstall script), run by the pinned Node: the `.npmrc` keeps
 * npm's engine warnings quiet, since npm checks engines against the Node that runs npm itself.
 */
process.stdout.write(
  `Installed. Node ${process.versions.node}, pinned by the node package, runs npm run build, npm start and npm test; the machine's Node only runs npm.\n`,
);
