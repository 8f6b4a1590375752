/** The product of the many-to-many tests: projects list their members and tags (decision 0044). */
export const SPEC = `
product: { name: Teams }
entities:
  Tag:
    fields:
      name: { type: string, required: true }
  Label:
    fields:
      name: { type: string, required: true }
  Project:
    fields:
      title: { type: string, required: true }
      members: { type: ref, to: User, many: true }
      tags: { type: ref, to: Tag, many: true }
      labels: { type: ref, to: Label, many: true, onDelete: setNull }
roles:
  lead:
    Project: { read: all, create: true, update: true, delete: true }
    Tag: { read: all, create: true, update: true, delete: true }
    Label: { read: all, create: true, update: true, delete: true }
    User: { read: all }
  member:
    Project: { read: "user.id in members" }
    Tag: { read: all }
`;
