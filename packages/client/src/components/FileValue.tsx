/**
 * Files for reading (decision 0055). In a list: an image as a small thumbnail (`?w=64`, lazy, its
 * name as `alt`), any other file as its name linking to it. On a record's page: an image at reading
 * width (`?w=1280`) linking to the original, a PDF previewed in a frame (the server serves PDFs
 * inline), and for every file a download link with its name and size. A file the reader may not
 * read is never in the record they are sent, so nothing here asks.
 */
import { type FileInfo } from '@ninefold/model';
import { IconDownload } from '@tabler/icons-react';
import { fileUrl, isPdf, isPicture } from '../api/files';
import { formatFileSize } from '../format/file-size';
import { useHttp, useModel } from '../runtime/runtime';
import { FileIcon, FileName, Thumbnail, filesOf } from './FileParts';
import { useT } from '../i18n/I18nProvider';

/**
 * A file field's value in a list's cell: thumbnails for images, linked names for other files.
 *
 * @example <FileCell value={record.photos} label="Photos" />
 */
export function FileCell({ value, label }: { value: unknown; label: string }) {
  const http = useHttp();
  const files = filesOf(value);
  const items = files.map((file) =>
    isPicture(file) ? (
      <a key={file.id} href={fileUrl(http, file.id)} target="_blank" rel="noopener noreferrer">
        <Thumbnail file={file} width={64} size={32} />
      </a>
    ) : (
      <a
        key={file.id}
        className="nf-value-link nf-file-inline"
        href={fileUrl(http, file.id)}
        target="_blank"
        rel="noopener noreferrer"
      >
        <FileIcon file={file} size={16} />
        <FileName name={file.name} />
      </a>
    ),
  );
  if (items.length === 1) return items[0];
  return (
    <ul className="nf-file-thumbs" aria-label={label}>
      {items.map((item, i) => (
        <li key={files[i]!.id}>{item}</li>
      ))}
    </ul>
  );
}

/**
 * A file field's value on a record's page: each file previewed as its kind allows, with a download
 * link.
 *
 * @example <FileDetail value={claim.receipt} label="Receipt" />
 */
export function FileDetail({ value, label }: { value: unknown; label: string }) {
  const files = filesOf(value);
  if (files.length === 1) return <FilePreview file={files[0]!} />;
  return (
    <ul className="nf-file-items" aria-label={label}>
      {files.map((file) => (
        <li key={file.id}>
          <FilePreview file={file} />
        </li>
      ))}
    </ul>
  );
}

/** One file on a record's page: its preview (an image, a PDF), then its download link. */
function FilePreview({ file }: { file: FileInfo }) {
  const http = useHttp();
  const original = fileUrl(http, file.id);
  const t = useT();
  return (
    <figure className="nf-file-figure">
      {isPicture(file) && (
        <a
          href={original}
          target="_blank"
          rel="noopener noreferrer"
          title={t('common.originalFile', { name: file.name })}
        >
          <img
            src={fileUrl(http, file.id, { width: 1280 })}
            alt={file.name}
            loading="lazy"
            decoding="async"
          />
        </a>
      )}
      {isPdf(file) && <iframe className="nf-file-pdf" src={original} title={file.name} loading="lazy" />}
      <figcaption>
        <DownloadLink file={file} />
      </figcaption>
    </figure>
  );
}

/**
 * A link that downloads a file (`?download=1`), named by the file's name and size.
 *
 * @example <DownloadLink file={receipt} /> // ⤓ receipt.pdf (120 kB)
 */
export function DownloadLink({ file }: { file: FileInfo }) {
  const http = useHttp();
  const locale = useModel().product.locale;
  const size = file.size > 0 ? formatFileSize(file.size, locale) : null;
  const t = useT();
  return (
    <a
      className="nf-value-link nf-file-inline"
      href={fileUrl(http, file.id, { download: true })}
      download={file.name}
      aria-label={
        size === null
          ? t('common.downloadFile', { name: file.name })
          : t('common.downloadFileSize', { name: file.name, size })
      }
    >
      <IconDownload size={16} stroke={1.6} aria-hidden="true" />
      <FileName name={file.name} />
      {size !== null && <span className="nf-value-dimmed">({size})</span>}
    </a>
  );
}
