/**
 * Operator commands on the lead store that `DATABASE_URL` names: `npm run leads -- <command>`.
 *   export   every stored lead, oldest first, one JSON object per line on standard output
 */
import { ConfigError, getConfig } from '../config.ts';
import { createLeadStore } from '../store/index.ts';

const USAGE = 'usage: npm run leads -- export\n  export   print every stored lead as one JSON object per line (oldest first)\n';

async function exportLeads(): Promise<void> {
  const store = await createLeadStore(getConfig());
  try {
    for await (const lead of store.exportLeads()) {
      const line = JSON.stringify({
        id: lead.id,
        formType: lead.formType,
        receivedAt: lead.receivedAt,
        receivedVia: lead.receivedVia,
        fields: lead.fields,
        phoneE164: lead.phoneE164,
        emailNormalised: lead.emailNormalised,
        consent: lead.consent,
        ...(lead.disclosure && { disclosure: lead.disclosure }),
      });
      // Respect back-pressure so that a large export piped to a slow reader does not pile up in memory.
      if (!process.stdout.write(`${line}\n`)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    }
  } finally {
    await store.close();
  }
}

const commands: Record<string, () => Promise<void>> = { export: exportLeads };

const [command] = process.argv.slice(2);
const run = command ? commands[command] : undefined;
if (!run) {
  process.stderr.write(command ? `unknown command: ${command}\n${USAGE}` : USAGE);
  process.exit(2);
}
try {
  await run();
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : `leads ${command} failed: ${(err as Error).message}`}\n`);
  process.exit(1);
}
