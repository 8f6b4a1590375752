/**
 * The uploads a file control has under way: each starts as soon as a file is chosen, reports its
 * progress, can be cancelled (its request aborted), and ends with the stored file's `FileInfo` or
 * the server's refusal. Leaving the form aborts whatever is still being sent.
 */
import { type Field, type FileInfo } from '@ninefold/model';
import { useCallback, useEffect, useRef, useState } from 'react';
import { uploadFile } from '../api/files';
import { describeError } from '../runtime/messages';
import { useHttp, useModel } from '../runtime/runtime';

/** One file being sent. */
export interface Upload {
  readonly key: string;
  readonly name: string;
  readonly size: number;
  /** Bytes sent so far. */
  readonly sent: number;
}

export interface Uploads {
  readonly uploads: readonly Upload[];
  /** Sends a file; `onDone` gets its `FileInfo`, `onFailed` the message of a refusal. */
  start(file: File): void;
  /** Aborts one upload: nothing is stored, nothing is reported. */
  cancel(key: string): void;
}

let counter = 0;

/**
 * Uploads for one field of one entity.
 *
 * @example const { uploads, start, cancel } = useUploads(entity, field, { onDone: add, onFailed: setProblem });
 */
export function useUploads(
  entity: string | undefined,
  field: Field,
  on: { onDone(file: FileInfo): void; onFailed(message: string): void },
): Uploads {
  const http = useHttp();
  const model = useModel();
  const [uploads, setUploads] = useState<readonly Upload[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const handlers = useRef(on);
  handlers.current = on;

  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
      running.clear();
    };
  }, []);

  const update = (key: string, change: ((upload: Upload) => Upload) | null) =>
    setUploads((all) =>
      change === null ? all.filter((u) => u.key !== key) : all.map((u) => (u.key === key ? change(u) : u)),
    );

  const start = useCallback(
    (file: File) => {
      const key = `upload-${++counter}`;
      const controller = new AbortController();
      controllers.current.set(key, controller);
      setUploads((all) => [...all, { key, name: file.name, size: file.size, sent: 0 }]);
      uploadFile(http, file, {
        ...(entity === undefined ? {} : { entity, field: field.name }),
        signal: controller.signal,
        // the request's bytes are the file's and the form's around it: its share sent, of the file
        onProgress: (sent, total) =>
          update(key, (upload) => ({
            ...upload,
            sent: total > 0 ? Math.round(upload.size * Math.min(1, sent / total)) : upload.sent,
          })),
      }).then(
        (info) => {
          controllers.current.delete(key);
          update(key, null);
          handlers.current.onDone(info);
        },
        (error: unknown) => {
          controllers.current.delete(key);
          update(key, null);
          if (!controller.signal.aborted) handlers.current.onFailed(describeError(model, error).message);
        },
      );
    },
    [http, model, entity, field.name],
  );

  const cancel = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
  }, []);

  return { uploads, start, cancel };
}
