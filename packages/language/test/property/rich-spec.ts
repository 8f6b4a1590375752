/** A spec that uses every facet and most of the notation, the starting point for mutations. */
export const RICH_SPEC = `# Expense claims

Employees ask to be reimbursed; managers approve; finance pays.

## 1. What the product does and for whom
Claims replace the spreadsheet that expenses travel through.
\`\`\`yaml
product:
  name: Expense claims
  audience: Every employee, their managers and the finance team.
  locale: en-GB
  theme: { primaryColor: "#1c7ed6", colorScheme: auto }
\`\`\`

## 2. Screens and routes
\`\`\`yaml
screens:
  myClaims:
    entity: Claim
    path: /my-claims
    title: My claims
    columns: [title, amount, state]
    where: "submittedBy == user.id"
    sort: -createdAt
    roles: [employee]
  queue: { entity: Claim, path: /queue, where: "state == 'submitted'", roles: [manager] }
  about: { kind: page, path: /about-claims, body: "How claims work." }
nav:
  - myClaims
  - { screen: queue, label: To approve, icon: inbox }
  - about
\`\`\`

## 3. Entities and their fields
\`\`\`yaml
entities:
  Claim:
    owner: submittedBy
    display: title
    search: [title, note]
    fields:
      title:    { type: string, required: true, maxLength: 120 }
      amount:   { type: money, currency: EUR, required: true, min: 0.01, max: MAX_CLAIM }
      spentOn:  { type: date, required: true, max: "2100-01-01" }
      category: { type: enum, values: [travel, meals, equipment, other], default: other }
      submittedBy: { type: ref, to: User, default: user.id, readonly: true }
      project:  { type: ref, to: Project }
      receipt:  { type: url }
      paidOn:   { type: date, readonly: true }
      paidAt:   { type: datetime, readonly: true }
      rejectionReason: { type: text }
      note: text
      nights:   { type: integer, min: 0, max: 365, default: 0 }
      rate:     { type: decimal, scale: 4, precision: 10 }
      urgent:   { type: boolean, default: false }
      contact:  { type: email }
      phone:    { type: phone }
      tags:     { type: enum, values: [a, b, c], many: true, maxLength: 3 }
      extra:    { type: json }
      startsAt: { type: time }
  Project:
    fields:
      name: { type: string, required: true, unique: true, pattern: "^[A-Z][A-Za-z0-9 ]*$" }
      budget: { type: money, currency: EUR }
      members: { type: ref, to: User, many: true }
\`\`\`

## 4. States and transitions
\`\`\`yaml
states:
  Claim:
    initial: draft
    states:
      draft: { label: Draft }
      submitted: { color: blue }
      approved: {}
      rejected: {}
      paid: { terminal: true }
    transitions:
      submit:  { from: draft, to: submitted, roles: [employee] }
      approve: { from: submitted, to: approved, roles: [manager], when: "submittedBy != user.id" }
      reject:  { from: submitted, to: rejected, roles: [manager], require: [rejectionReason], confirm: true }
      reopen:  { from: [rejected], to: draft, roles: employee }
      pay:     { from: approved, to: paid, roles: [finance], set: { paidAt: now, paidOn: today } }
\`\`\`

## 5. Validation rules
\`\`\`yaml
rules:
  - id: receipt-over-threshold
    entity: Claim
    description: Receipts are needed above the threshold.
    assert: "amount <= RECEIPT_THRESHOLD || has(receipt)"
    error: E_RECEIPT_REQUIRED
  - id: nights-for-travel
    entity: Claim
    when: "category == 'travel'"
    assert: "nights >= 0 && size(title) > 0"
    fields: [nights]
    on: [create, update, submit]
  - id: amount-does-not-grow
    entity: Claim
    on: [update]
    assert: "amount <= old.amount || state == 'draft'"
\`\`\`

## 6. Roles and permissions
\`\`\`yaml
roles:
  employee:
    label: Employee
    Claim: { read: own, create: true, update: "own && state == 'draft'", delete: "own && state == 'draft'" }
    Project: { read: true }
  manager:
    inherits: employee
    Claim: { read: all, fields: { read: [title, amount, submittedBy], write: [rejectionReason] } }
  finance:
    inherits: [employee]
    Claim: { read: "amount > 0.0", update: true }
    Project: true
\`\`\`

## 7. The calls it makes
\`\`\`yaml
calls: { basePath: /api, timeoutMs: 8000, retries: 1, offlineQueue: true }
\`\`\`

## 8. The error catalogue
\`\`\`yaml
errors:
  E_RECEIPT_REQUIRED:
    status: 422
    field: receipt
    message: "A receipt is required above {RECEIPT_THRESHOLD, number, ::currency/EUR}."
  E_TOO_MANY: "At most {limit, plural, one {# claim} other {# claims}} at once."
  E_NOT_FOUND: { message: "Nothing here." }
\`\`\`

## 9. Business constants and limits
\`\`\`yaml
constants: { MAX_CLAIM: 5000, RECEIPT_THRESHOLD: 25, COMPANY: "Acme", STRICT: true }
limits: { pageSize: 50, maxPageSize: 200, requestsPerMinute: { default: 600, guest: 60, finance: 1200 } }
\`\`\`
`;
