/**
 * Multipart bodies for tests that reach the server in-process: `app.inject()` takes bytes, not a
 * `FormData`, so an upload made by the app (jsdom's `FormData` and `File`) or arranged by a test is
 * written out here as `multipart/form-data`, as a browser would send it.
 */

/** One part: a text value, or a file with its name, type and bytes. */
export type Part = string | { readonly filename: string; readonly type: string; readonly bytes: Uint8Array };

/**
 * A multipart body and its content type.
 *
 * @example const { body, contentType } = multipart([['file', { filename: 'r.png', type: 'image/png', bytes }]]);
 */
export function multipart(parts: readonly (readonly [string, Part])[]): {
  body: Buffer;
  contentType: string;
} {
  const boundary = `----ninefold${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, part] of parts) {
    const head =
      typeof part === 'string'
        ? `Content-Disposition: form-data; name="${name}"\r\n\r\n`
        : `Content-Disposition: form-data; name="${name}"; filename="${escape(part.filename)}"\r\nContent-Type: ${part.type || 'application/octet-stream'}\r\n\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}`));
    chunks.push(typeof part === 'string' ? Buffer.from(part) : Buffer.from(part.bytes));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A `FormData` (jsdom's, as the app builds it) as a multipart body.
 *
 * @example const { body, contentType } = await formDataBody(init.body as FormData);
 */
export async function formDataBody(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const parts: [string, Part][] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') parts.push([name, value]);
    else
      parts.push([
        name,
        { filename: value.name, type: value.type, bytes: new Uint8Array(await value.arrayBuffer()) },
      ]);
  }
  return multipart(parts);
}

/** A file name in a header as browsers write it: quotes and line breaks percent-encoded. */
function escape(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
