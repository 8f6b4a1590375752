import { compile } from '@ninefold/language';
import { type Model } from '@ninefold/model';

/** Compiles a YAML spec snippet into a model, failing the test on any error diagnostic. */
export function model(yaml: string): Model {
  const result = compile(yaml, { file: 'spec.yaml' });
  if (!result.ok) {
    throw new Error(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join('\n'));
  }
  return result.model;
}

export const NOW = new Date('2026-11-23T09:30:00.000Z');
export const alice = { id: 'u-alice', email: 'alice@example.com', name: 'Alice', roles: ['employee'] };
export const bob = { id: 'u-bob', email: 'bob@example.com', name: 'Bob', roles: ['manager'] };
export const ann = { id: 'u-ann', email: 'ann@example.com', name: 'Ann', roles: ['auditor'] };
export const carl = { id: 'u-carl', email: 'carl@example.com', name: 'Carl', roles: ['clerk'] };
export const fran = { id: 'u-fran', email: 'fran@example.com', name: 'Fran', roles: ['finance'] };

/** The claims product of DESIGN.md, in YAML. */
export const CLAIMS = `
product: { name: Claims }
entities:
  Claim:
    owner: submittedBy
    fields:
      title:    { type: string, required: true, maxLength: 120 }
      amount:   { type: money, currency: EUR, required: true, min: 0.01, max: MAX_CLAIM }
      fee:      { type: decimal, scale: 2, precision: 7 }
      spentOn:  { type: date, required: true }
      category: { type: enum, values: [travel, meals, equipment, other] }
      submittedBy: { type: ref, to: User, default: user.id, readonly: true }
      receipt:  { type: url }
      paidOn:   { type: date, readonly: true }
      rejectionReason: { type: text }
      nights:   { type: integer, min: 0, max: 30 }
      code:     { type: string, minLength: 3, maxLength: 5, pattern: "[A-Z]+" }
      urgent:   { type: boolean, default: false }
      tags:     { type: enum, many: true, values: [a, b, c], maxLength: 2 }
      decidedAt: { type: datetime }
states:
  Claim:
    initial: draft
    transitions:
      submit:  { from: draft, to: submitted, roles: [employee] }
      approve: { from: submitted, to: approved, roles: [manager], when: "submittedBy != user.id" }
      reject:  { from: submitted, to: rejected, roles: [manager], require: [rejectionReason], set: { decidedAt: now } }
      pay:     { from: approved, to: paid, roles: [finance], set: { paidOn: today } }
      reopen:  { from: [rejected], to: draft }
rules:
  - id: receipt-over-threshold
    entity: Claim
    assert: "amount <= RECEIPT_THRESHOLD || has(receipt)"
    error: E_RECEIPT_REQUIRED
    fields: [receipt]
  - id: fee-below-max
    entity: Claim
    assert: "fee <= MAX_FEE"
    error: E_FEE_TOO_HIGH
    fields: [fee]
  - id: meals-need-nights
    entity: Claim
    when: "category == 'meals'"
    assert: "nights > 0"
    on: [submit]
roles:
  employee:
    Claim: { read: own, create: true, update: "own && state == 'draft'", delete: false }
  manager:
    inherits: employee
    Claim: { read: all }
  auditor:
    Claim: { read: all, fields: { read: [title, amount] } }
  clerk:
    Claim: { read: all, create: true, update: true, fields: { write: [title, amount] } }
  finance:
    Claim: { read: "state in ['approved', 'paid']", update: false }
errors:
  E_RECEIPT_REQUIRED: { status: 422, field: receipt, message: "A receipt is required above {RECEIPT_THRESHOLD, number, ::currency/EUR}." }
  E_FEE_TOO_HIGH: { status: 422, message: "The fee {fee} is above {MAX_FEE}." }
constants: { MAX_CLAIM: 5000, RECEIPT_THRESHOLD: 25, MAX_FEE: 99.5 }
`;
