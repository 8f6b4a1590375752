// The specs the outbox benchmark serves: the server benchmark's claims (bench/server/spec.js) as
// they are, and the same with one notification and one webhook on every created claim — the
// effects issue 17 asks a create to carry at no more than a fifth of its speed.
import { compile } from '@ninefold/language';
import { SPEC } from '../server/spec.js';

/** One notification (in the app and by mail, to every manager) and one webhook, on Claim.created. */
export const EFFECTS = `
notifications:
  claim-created:
    on: Claim.created
    to: [manager]
    channels: [app, email]
    subject: "New claim: {title}"
    message: "{user.name} claimed {amount} for {title}."
webhooks:
  accounting:
    on: Claim.created
    url: \${BENCH_WEBHOOK_URL}
    secret: \${BENCH_WEBHOOK_SECRET}
`;

/** The compiled model of a side (`plain` or `effects`), or exit 1 with the diagnostics. */
export function outboxModel(side) {
  const text = side === 'plain' ? SPEC : `${SPEC}${EFFECTS}`;
  const result = compile(text, { file: `bench-outbox-${side}.yaml` });
  if (!result.ok || result.diagnostics.length > 0) {
    console.error(`The ${side} spec does not compile cleanly:`);
    for (const d of result.diagnostics) console.error(`  ${d.line}:${d.column}  ${d.code}  ${d.message}`);
    process.exit(1);
  }
  return result.model;
}
