// Generates a realistic nine-section Markdown spec of any number of entities, in memory, for the
// compile benchmark and the profiler. Every entity has the same shape, so time should grow linearly.
//
// Per entity: 10 fields of varied types plus an owner field, 3 rules whose assertions read fields and
// constants, a 5-state machine with 5 transitions (one guarded by `when`, one with `set`), and
// access for every role (`read: own` for the clerk).

const KINDS = ['Claim', 'Order', 'Ticket', 'Booking', 'Invoice', 'Request', 'Contract', 'Shipment'];
const CURRENCIES = ['EUR', 'USD', 'GBP', 'CHF'];

/** `Claim1`, `Order2`, … `Shipment8`, `Claim9`: PascalCase, unique, pleasant to read in a profile. */
export function entityName(i) {
  return `${KINDS[i % KINDS.length]}${i + 1}`;
}

function kebab(name) {
  return name.replace(/([a-z])([A-Z0-9])/g, '$1-$2').toLowerCase();
}

function entityBlock(i, count) {
  const name = entityName(i);
  // the first entity refers to the last, so that every entity has the same ref field
  const previous = entityName((i + count - 1) % count);
  const currency = CURRENCIES[i % CURRENCIES.length];
  return `entities:
  ${name}:
    label: ${KINDS[i % KINDS.length]} ${i + 1}
    description: ${KINDS[i % KINDS.length]} records of team ${i + 1}.
    owner: submittedBy
    search: [title, contactEmail]
    fields:
      title:        { type: string, required: true, maxLength: 120 }
      notes:        { type: text, help: "Anything the reviewer should know." }
      quantity:     { type: integer, required: true, min: MIN_QUANTITY, max: MAX_QUANTITY }
      amount:       { type: money, currency: ${currency}, required: true, min: 0.01, max: MAX_AMOUNT }
      dueOn:        { type: date, min: "2020-01-01" }
      priority:     { type: enum, values: [low, normal, high, urgent], default: normal }
      billable:     { type: boolean, default: false }
      contactEmail: { type: email, maxLength: 200 }
      previous:     { type: ref, to: ${previous} }
      reviewedAt:   { type: datetime, readonly: true }
      submittedBy:  { type: ref, to: User, default: user.id, readonly: true }
`;
}

function machineBlock(i) {
  return `states:
  ${entityName(i)}:
    initial: draft
    states:
      draft: { label: Draft, color: gray }
      submitted: { label: Submitted, color: blue }
      approved: { label: Approved, color: green }
      rejected: { label: Rejected, color: red }
      closed: { label: Closed, terminal: true }
    transitions:
      submit:  { from: draft, to: submitted, roles: [clerk], require: [amount] }
      approve: { from: submitted, to: approved, roles: [manager], when: "submittedBy != user.id && amount <= MAX_AMOUNT" }
      reject:  { from: submitted, to: rejected, roles: [manager], require: [notes], confirm: true }
      reopen:  { from: rejected, to: draft, roles: [clerk, manager] }
      close:   { from: [approved, rejected], to: closed, roles: [manager], set: { reviewedAt: now } }
`;
}

function rulesBlock(i) {
  const name = entityName(i);
  const id = kebab(name);
  return `rules:
  - id: ${id}-note-over-limit
    entity: ${name}
    description: Large amounts need a note.
    assert: "amount <= NOTE_THRESHOLD || has(notes)"
    error: E_NOTE_REQUIRED
  - id: ${id}-urgent-needs-date
    entity: ${name}
    when: "priority == 'urgent'"
    assert: "has(dueOn) && quantity <= MAX_URGENT_QUANTITY"
    error: E_URGENT_DUE_DATE
  - id: ${id}-title-length
    entity: ${name}
    on: [create, update, submit]
    assert: "size(title) >= MIN_TITLE && !title.startsWith(' ')"
    fields: [title]
`;
}

function rolesBlock(count) {
  const clerk = [];
  const manager = [];
  const admin = [];
  for (let i = 0; i < count; i++) {
    const name = entityName(i);
    clerk.push(`    ${name}: { read: own, create: true, update: "own && state == 'draft'" }`);
    manager.push(`    ${name}: { read: all, update: true }`);
    admin.push(`    ${name}: true`);
  }
  return `roles:
  clerk:
    label: Clerk
    description: Files records and follows their own.
${clerk.join('\n')}
  manager:
    inherits: clerk
    description: Reviews what clerks file.
${manager.join('\n')}
  admin:
    inherits: manager
${admin.join('\n')}
`;
}

const fence = (yaml) => `\`\`\`yaml\n${yaml}\`\`\``;

/**
 * A spec of `count` entities as Markdown, with the YAML blocks it contains, in file order: the
 * anchor of the benchmark parses exactly these texts.
 *
 * @example const { text, blocks } = generateSpec(1000);
 */
export function generateSpec(count) {
  const blocks = [];
  const parts = [];
  const block = (yaml) => {
    blocks.push(yaml);
    parts.push(fence(yaml));
  };
  const prose = (line) => parts.push(line);

  prose(`# Back office (${count} record types)\n`);
  prose('## 1. What the product does and for whom\n');
  prose('Teams file claims, orders, tickets and other records; managers review and close them.\n');
  block(`product:
  name: Back office
  summary: Every record a team files, reviewed and closed in one place.
  audience: Clerks and managers of a mid-sized company.
  locale: en-GB
  theme: { primaryColor: "#1f6feb", colorScheme: auto }
`);

  prose('\n## 2. Screens and routes\n');
  prose('Every record type gets its list, detail and forms; the home page and "my claims" are extra.\n');
  block(`screens:
  home: { kind: page, path: /home, title: Home, body: "Welcome to the back office." }
  my-claims:
    kind: list
    entity: ${entityName(0)}
    path: /my-claims
    title: My claims
    where: "own"
    columns: [title, amount, state]
    sort: -createdAt
`);

  prose('\n## 3. Entities and their fields\n');
  for (let i = 0; i < count; i++) {
    prose(`### ${entityName(i)}\n\nWhat team ${i + 1} files, with the amount it asks for.\n`);
    block(entityBlock(i, count));
  }

  prose('\n## 4. States and transitions\n');
  for (let i = 0; i < count; i++) {
    prose(`${entityName(i)} records move from draft to closed.\n`);
    block(machineBlock(i));
  }

  prose('\n## 5. Validation rules\n');
  for (let i = 0; i < count; i++) block(rulesBlock(i));

  prose('\n## 6. Roles and permissions\n');
  prose('Clerks see their own records; managers see all; admins may do everything.\n');
  block(rolesBlock(count));

  prose('\n## 7. The calls it makes\n');
  block('calls: { basePath: /api, timeoutMs: 8000, retries: 2, offlineQueue: true }\n');

  prose('\n## 8. The error catalogue\n');
  block(`errors:
  E_NOTE_REQUIRED:
    status: 422
    field: notes
    message: "A note is required above {NOTE_THRESHOLD, number}."
  E_URGENT_DUE_DATE:
    status: 422
    field: dueOn
    message: "Urgent records need a due date and at most {MAX_URGENT_QUANTITY, number} items."
`);

  prose('\n## 9. Business constants and limits\n');
  block(`constants:
  MAX_AMOUNT: 50000
  NOTE_THRESHOLD: 1000
  MIN_QUANTITY: 1
  MAX_QUANTITY: 10000
  MAX_URGENT_QUANTITY: 100
  MIN_TITLE: 3
limits:
  pageSize: 50
  requestsPerMinute: { default: 600, guest: 60, manager: 1200 }
`);

  return { text: `${parts.join('\n')}\n`, blocks };
}
