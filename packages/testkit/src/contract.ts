/**
 * The API contract in the tests: every response an API test receives is checked against the
 * OpenAPI document the server publishes (the operation of its method and path, the schema of its
 * status and content type), with ajv for JSON Schema 2020-12.
 */
import { type Model } from '@ninefold/model';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { openApiDocument } from '@ninefold/server';

type Doc = ReturnType<typeof openApiDocument>;

const contracts = new WeakMap<Model, Contract>();

class Contract {
  readonly #ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  readonly #routes: { method: string; pattern: RegExp; path: string }[] = [];
  readonly #validators = new Map<string, ReturnType<Ajv2020['compile']>>();

  constructor(readonly doc: Doc) {
    this.#ajv.addSchema({ ...doc, $id: 'doc' });
    for (const [path, item] of Object.entries(doc.paths)) {
      const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const method of Object.keys(item)) this.#routes.push({ method, pattern, path });
    }
  }

  /** Throws when the response does not match the document. */
  check(method: string, url: string, response: LightMyRequestResponse): void {
    const path = url.split('?')[0] ?? url;
    if (response.statusCode >= 500 && path !== '/ready') {
      throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body}`);
    }
    const route = this.#routes.find((r) => r.method === method.toLowerCase() && r.pattern.test(path));
    if (route === undefined) {
      if (response.statusCode === 404) return; // a route that does not exist: not an operation
      throw new Error(`No operation in the OpenAPI document for ${method} ${path}`);
    }
    const operation = this.doc.paths[route.path]?.[route.method] as
      { responses: Record<string, { content?: Record<string, unknown> }> } | undefined;
    const status = String(response.statusCode);
    const declared = operation?.responses[status];
    if (declared === undefined) {
      throw new Error(
        `${method} ${route.path} answered ${status}, which the document does not declare: ${response.body}`,
      );
    }
    if (declared.content === undefined) {
      if (response.body !== '') throw new Error(`${method} ${route.path} ${status} should have no body`);
      return;
    }
    const sent = String(response.headers['content-type'] ?? '').split(';')[0] ?? '';
    // an answer of any type (a file's bytes) is declared `*/*`; a problem keeps its own type
    const type = declared.content[sent] === undefined && declared.content['*/*'] !== undefined ? '*/*' : sent;
    if (declared.content[type] === undefined) {
      throw new Error(
        `${method} ${route.path} ${status} sent ${sent}, expected ${Object.keys(declared.content).join(' or ')}`,
      );
    }
    const pointer = ['paths', route.path, route.method, 'responses', status, 'content', type, 'schema']
      .map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    let validate = this.#validators.get(pointer);
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: `doc#/${pointer}` });
      this.#validators.set(pointer, validate);
    }
    // a text body (a CSV export) is checked as the string it is; JSON bodies are parsed first
    const payload: unknown = type.endsWith('json') ? response.json() : response.body;
    if (!validate(payload)) {
      throw new Error(
        `${method} ${route.path} ${status} does not match the document: ${this.#ajv.errorsText(validate.errors)}\n${response.body.slice(0, 2000)}`,
      );
    }
  }
}

/** The contract of a model's API. */
export function contractOf(model: Model): Contract {
  let contract = contracts.get(model);
  if (contract === undefined) {
    contract = new Contract(openApiDocument(model));
    contracts.set(model, contract);
  }
  return contract;
}

/**
 * `app.inject` that checks the response against the OpenAPI document.
 *
 * @example const response = await checkedInject(app, model, { method: 'GET', url: '/api/claims', headers });
 */
export async function checkedInject(
  app: FastifyInstance,
  model: Model,
  options: InjectOptions & { method: string; url: string },
): Promise<LightMyRequestResponse> {
  const response = await app.inject(options);
  contractOf(model).check(options.method, options.url, response);
  return response;
}
