/**
 * The OpenAPI document of records with file fields (decision 0054): still valid OpenAPI 3.1 (an
 * independent validator), the download's 416 a problem with its `Content-Range`, a file field read
 * as the `FileInfo` object (a list of them when `many`) and written as an id or `{ id }`.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/index.js';
import { receiptsModel } from './files-records-world.js';

type Schemas = Record<string, { properties: Record<string, Record<string, unknown>> }>;
type Json = Record<string, unknown>;

describe('OpenAPI of file fields', () => {
  const doc = openApiDocument(receiptsModel());
  const schemas = (doc['components'] as { schemas: Schemas }).schemas;

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('answers a range of none of the bytes with its problem and Content-Range', () => {
    const download = (doc['paths'] as Record<string, Record<string, { responses: Record<string, Json> }>>)[
      '/api/files/{id}'
    ]?.['get'];
    const refused = download?.responses['416'];
    expect(refused?.['headers']).toMatchObject({ 'Content-Range': { schema: { type: 'string' } } });
    expect(refused?.['content']).toMatchObject({
      'application/problem+json': {
        schema: { allOf: [{}, { properties: { code: { enum: ['E_RANGE_NOT_SATISFIABLE'] } } }] },
      },
    });
  });

  it('reads a file as its FileInfo and takes its id or { id } in a write', () => {
    const info = { required: ['id', 'name', 'size', 'type'] };
    expect(schemas['Claim']?.properties['receipt']).toMatchObject({ type: ['object', 'null'], ...info });
    expect(schemas['Claim']?.properties['photos']).toMatchObject({
      type: ['array', 'null'],
      items: { type: 'object', ...info },
    });
    const written = [{ type: 'string' }, { type: 'object', required: ['id'] }];
    expect(schemas['ClaimInput']?.properties['receipt']).toMatchObject({
      oneOf: [...written, { type: 'null' }],
    });
    expect(schemas['ClaimInput']?.properties['photos']).toMatchObject({
      type: ['array', 'null'],
      items: { oneOf: written },
    });
  });
});
