/**
 * The pieces a stored file is shown with, in a form and for reading alike: its thumbnail (an
 * image's variant, loaded lazily, named by the file's name), an icon of its kind, and its name —
 * text React escapes, cut short with the whole of it in `title`.
 */
import { type FileInfo, type ImageWidth, isFileInfo } from '@ninefold/model';
import { IconFile, IconFileTypePdf, IconPhoto } from '@tabler/icons-react';
import { fileUrl, isPdf, isPicture } from '../api/files';
import { useHttp } from '../runtime/runtime';
import './files.css';

/**
 * The files a field's value holds: one, a list, or none. An id not yet read back as a `FileInfo`
 * is shown by its id.
 *
 * @example filesOf(record.photos) // [{ id: '…', name: 'front.jpg', size: 81234, type: 'image/jpeg' }]
 */
export function filesOf(value: unknown): FileInfo[] {
  const items = Array.isArray(value) ? (value as unknown[]) : value == null || value === '' ? [] : [value];
  return items.flatMap((item) =>
    isFileInfo(item)
      ? [item]
      : typeof item === 'string'
        ? [{ id: item, name: item, size: 0, type: 'application/octet-stream' }]
        : [],
  );
}

/**
 * An image's variant `width` pixels wide, its `alt` the file's name, loaded when scrolled to.
 *
 * @example <Thumbnail file={photo} width={64} />
 */
export function Thumbnail({ file, width, size }: { file: FileInfo; width: ImageWidth; size: number }) {
  const http = useHttp();
  return (
    <img
      className="nf-file-thumb"
      src={fileUrl(http, file.id, { width })}
      alt={file.name}
      title={file.name}
      loading="lazy"
      decoding="async"
      width={size}
      height={size}
    />
  );
}

/**
 * An icon of the file's kind: a picture, a PDF, any other file. Decoration: the name says it.
 *
 * @example <FileIcon file={receipt} />
 */
export function FileIcon({ file, size = 20 }: { file: Pick<FileInfo, 'type'>; size?: number }) {
  const Icon = isPicture(file) ? IconPhoto : isPdf(file) ? IconFileTypePdf : IconFile;
  return <Icon className="nf-file-icon" size={size} stroke={1.6} aria-hidden="true" />;
}

/**
 * A file's name, on one line, cut short with an ellipsis; the whole name in `title`.
 *
 * @example <FileName name="a very long scan of the hotel bill.pdf" />
 */
export function FileName({ name }: { name: string }) {
  return (
    <span className="nf-file-name" title={name}>
      {name}
    </span>
  );
}
