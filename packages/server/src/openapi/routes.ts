/**
 * `/openapi.json` and `/docs`: the API's description and a page that renders it. The page is one
 * small self-contained HTML document (no CDN, no UI package: it works offline and weighs a few KB,
 * decision 0009).
 */
import { type Model } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { openApiDocument } from './document.js';
import { DOCS_CONTENT_SECURITY_POLICY, docsPage } from './docs-page.js';

/**
 * @example registerOpenApiRoutes(app, model);
 */
export function registerOpenApiRoutes(app: FastifyInstance, model: Model): void {
  const document = JSON.stringify(openApiDocument(model));
  const page = docsPage(model.product.name);
  app.get('/openapi.json', async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(document),
  );
  app.get('/docs', async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      // the page runs only its own script, reads only this origin, and is never framed
      .header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY)
      .header('x-frame-options', 'DENY')
      .send(page),
  );
}
