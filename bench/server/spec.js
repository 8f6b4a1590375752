// The spec the server benchmark serves: a Claim with an owner, eight fields of varied types, a rule
// and a state machine; a clerk reads only their own claims (`read: own`), a manager reads them all.
// Two list screens: newest first, and by the day spent, latest first (decision 0048: the migration
// indexes what each declares).
// The request rate limit (and the sign-in limit: bench:instances signs in a dozen users from one
// address) is raised so that the benchmark measures the limiter, never its refusals.
import { compile } from '@ninefold/language';

export const SPEC = `
product: { name: Bench claims }
entities:
  Claim:
    owner: submittedBy
    search: [title, merchant]
    fields:
      title:       { type: string, required: true, maxLength: 120 }
      category:    { type: enum, values: [travel, meals, lodging, mileage, equipment], required: true }
      amount:      { type: money, currency: EUR, required: true, min: 0.01, max: MAX_AMOUNT }
      spentOn:     { type: date, required: true, min: "2020-01-01" }
      merchant:    { type: string, maxLength: 80 }
      mileageKm:   { type: integer, min: 0, max: 10000 }
      urgent:      { type: boolean, default: false }
      notes:       { type: text, maxLength: 2000 }
      submittedBy: { type: ref, to: User, default: user.id, readonly: true }
states:
  Claim:
    initial: draft
    states:
      draft: { label: Draft }
      submitted: { label: Submitted }
      approved: { label: Approved }
      rejected: { label: Rejected, terminal: true }
    transitions:
      submit:  { from: draft, to: submitted, roles: [clerk] }
      approve: { from: submitted, to: approved, roles: [manager], when: "submittedBy != user.id" }
      reject:  { from: submitted, to: rejected, roles: [manager] }
rules:
  - id: claim-note-over-limit
    entity: Claim
    assert: "amount <= NOTE_THRESHOLD || has(notes)"
    error: E_NOTE_REQUIRED
screens:
  claims:
    path: /claims
    entity: Claim
    title: Claims
    sort: -createdAt
  claims-by-day:
    path: /claims-by-day
    entity: Claim
    title: Claims by day
    sort: -spentOn
roles:
  clerk:
    Claim: { read: own, create: true, update: "own && state == 'draft'" }
  manager:
    inherits: clerk
    Claim: { read: all, update: true }
# the clerk may hold API tokens, for the bearer pair
auth: { tokens: [clerk] }
errors:
  E_NOTE_REQUIRED:
    status: 422
    field: notes
    message: "A note is required above {NOTE_THRESHOLD, number}."
constants:
  MAX_AMOUNT: 50000
  NOTE_THRESHOLD: 1000
limits:
  pageSize: 50
  requestsPerMinute: 1000000
  loginAttemptsPerMinute: 1000
`;

/** The compiled model, or exit 1 with the diagnostics. */
export function benchModel() {
  const result = compile(SPEC, { file: 'bench-server.yaml' });
  if (!result.ok || result.diagnostics.length > 0) {
    console.error('The benchmark spec does not compile cleanly:');
    for (const d of result.diagnostics) console.error(`  ${d.line}:${d.column}  ${d.code}  ${d.message}`);
    process.exit(1);
  }
  return result.model;
}

/** The body of every create: valid, so every request does the whole work and answers 201. */
export const CREATE_BODY = {
  title: 'Train to the client workshop',
  category: 'travel',
  amount: '84.50',
  spentOn: '2026-02-14',
  merchant: 'National Rail',
  mileageKm: 0,
  urgent: false,
  notes: 'Return ticket, second class.',
};
