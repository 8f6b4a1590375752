/**
 * Who may read a file (decision 0050): reading a file is reading the record field that holds it,
 * decided by the machinery the record's own GET uses (`resources/`: the role's read condition, its
 * field mask) and only while the record's stored value still names the file; a file no record
 * holds, only by its uploader. Everyone else is told nothing: the route answers them 404.
 */
import { type Value, isFileInfo } from '@ninefold/model';
import { type FastifyRequest } from 'fastify';
import { requireUserContext } from '../auth/request-auth.js';
import { ApiError } from '../http/errors.js';
import { present } from '../resources/present.js';
import { entityReaders } from '../resources/entity-readers.js';
import { type ResourceContext } from '../resources/resource.js';
import { type FileRow } from './rows.js';

/** How the download route decides whether its caller may read a file. */
export interface FileReadAccess {
  /** Whether the signed-in caller of `request` may read `file` (E_UNAUTHENTICATED for a guest). */
  mayRead(request: FastifyRequest, file: FileRow): Promise<boolean>;
}

/**
 * The read access of a model's files.
 *
 * @example if (!(await fileReadAccess(context).mayRead(request, file))) throw notFound();
 */
export function fileReadAccess(context: ResourceContext): FileReadAccess {
  const holderOf = entityReaders(context);
  return {
    async mayRead(request, file) {
      const user = requireUserContext(request);
      if (file.holder === null) return file.uploadedBy === user.id;
      const holder = holderOf(file.holder.entity);
      if (holder === null) return false;
      const record = await holder.reader.byId(file.holder.recordId);
      if (record === null) return false;
      const caller = holder.callers.of(request);
      let shown: Record<string, Value>;
      try {
        const { vars } = holder.reader.decide(record, caller);
        shown = present(holder.resource, record, caller, vars, true);
      } catch (error) {
        if (error instanceof ApiError) return false; // E_NOT_FOUND: the caller may not read the record
        throw error;
      }
      return holdsFile(shown[file.holder.field], file.id);
    },
  };
}

/**
 * Whether a file field's value (one `FileInfo`, or a list of them) names the file.
 *
 * @example holdsFile({ id: 'f1', name: 'a.pdf', size: 3, type: 'application/pdf' }, 'f1') // true
 */
export function holdsFile(value: Value | undefined, id: string): boolean {
  const items: unknown[] = Array.isArray(value) ? value : [value];
  return items.some((item) => isFileInfo(item) && item.id === id);
}
