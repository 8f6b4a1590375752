// The spec and the uploader of the files benchmark, shared by its runner and its servers.

export const EMAIL = 'uploader@example.com';
export const PASSWORD = 'correct horse battery';

// a file field that takes any type, and uploads up to 1 GiB (limits.maxUploadSize)
export const SPEC = `
product: { name: Bench files }
limits: { maxUploadSize: 1073741824, requestsPerMinute: 1000000 }
entities:
  Claim:
    fields:
      title: { type: string }
      receipt: { type: file }
roles:
  clerk:
    Claim: { read: all, create: true, update: true }
`;
