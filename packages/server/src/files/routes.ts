/**
 * The routes of files (decision 0050): `POST <basePath>/files` (`upload.ts`) and
 * `GET <basePath>/files/<id>` (`download.ts`). Multipart is registered in a scope of its own that
 * holds only the upload, so that no other route of the API accepts a multipart body; in that scope
 * a body of any other type is left unread and refused by the upload itself.
 */
import multipart from '@fastify/multipart';
import { API_PATHS, type Model } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { apiPath } from '../http/paths.js';
import { type ResourceContext } from '../resources/resource.js';
import { downloadRoute } from './download.js';
import { fileReadAccess } from './read-access.js';
import { type FileStore } from './store.js';
import { decideUploadScope, uploadRoute } from './upload.js';
import { imageVariants } from './variants.js';

/** What the file routes need: the resources' context and the store. */
export interface FileRoutesContext extends ResourceContext {
  readonly files: FileStore;
}

/**
 * Registers the upload and the download.
 *
 * @example registerFileRoutes(api, { model, database, now, files });
 */
export function registerFileRoutes(app: FastifyInstance, context: FileRoutesContext): void {
  const { model, files } = context;
  const path = apiPath(model, API_PATHS.files);
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    // any other body is not read here: the upload refuses it as not multipart
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    await scope.register(multipart);
    scope.post(
      path,
      { bodyLimit: largestUpload(model), preParsing: decideUploadScope(model) },
      uploadRoute(context),
    );
  });
  const download = downloadRoute({
    ...context,
    access: fileReadAccess(context),
    variants: imageVariants(files),
  });
  app.get(`${path}/:id`, download);
}

/** The most bytes any upload may have: the body limit of the upload route. */
function largestUpload(model: Model): number {
  let largest = model.limits.maxUploadSize;
  for (const entity of Object.values(model.entities)) {
    for (const field of Object.values(entity.fields)) largest = Math.max(largest, field.maxSize ?? 0);
  }
  // the multipart framing around the file
  return largest + 64 * 1024;
}
