/**
 * The input of a file or image field (decision 0055): a drop zone and the file picker (and, on a
 * phone, the camera for a field that takes photos). A chosen file is checked here first — its size
 * and type, with the server's own messages — then uploaded at once, its progress shown, and it can
 * be cancelled; once stored, the form's value is its `FileInfo` (a list of them when `many`), so a
 * save is the same JSON write as any other. Each file shows as a thumbnail or an icon with its name
 * and size, to replace or remove; a gallery's files move earlier or later.
 *
 * Files need the network: offline, the control says so and takes no file, and the rest of the
 * form still saves (or waits in the offline queue) as usual.
 */
import { ActionIcon, Button, Group, Input, Progress, Text, VisuallyHidden } from '@mantine/core';
import { type Field, type FileInfo, type Model, type Value } from '@ninefold/model';
import { IconArrowLeft, IconArrowRight, IconCloudOff, IconX } from '@tabler/icons-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { FileIcon, FileName, Thumbnail, filesOf } from '../components/FileParts';
import { isPicture } from '../api/files';
import { formatFileSize } from '../format/file-size';
import { type I18n } from '../i18n/i18n';
import { useT } from '../i18n/I18nProvider';
import { message } from '../runtime/messages';
import { useOnline } from '../runtime/online';
import { useModel } from '../runtime/runtime';
import { DropZone } from './DropZone';
import { type FieldInputProps } from './field-input-props';
import { acceptAttribute, maxFileSize, refusal, takesPhotos } from './file-checks';
import { useUploads } from './use-uploads';

/**
 * @example <FileInput field={claim.fields.receipt} value={receipt} onChange={setReceipt} />
 */
export function FileInput(props: FieldInputProps) {
  const { field } = props;
  const model = useModel();
  const t = useT();
  const online = useOnline();
  const id = useId();
  const label = props.label ?? field.label;
  const disabled = props.disabled ?? false;
  const files = filesOf(props.value);
  const latest = useRef(files);
  latest.current = files;
  const [problem, setProblem] = useState<string | null>(null);
  const [said, say] = useState('');
  const replacer = useRef<HTMLInputElement>(null);

  const give = (next: FileInfo[]) => {
    latest.current = next; // two uploads ending at once both count
    const values = next.map(asValue);
    props.onChange(field.many ? values : (values[0] ?? null));
  };
  const { uploads, start, cancel } = useUploads(entityOf(model, field), field, {
    onDone: (file) => {
      give(field.many ? [...latest.current, file] : [file]);
      say(t('fields.uploaded', { name: file.name }));
    },
    onFailed: (refused) => {
      setProblem(refused);
      say(refused);
    },
  });

  const uploading = uploads.length > 0;
  const onInvalid = props.onInvalid;
  // said at the field while one of its files is still being sent: the form waits for it
  const stillUploading = uploading ? t('fields.stillUploading') : null;
  useEffect(() => onInvalid?.(stillUploading), [stillUploading, onInvalid]);

  const max = field.many ? Number(field.maxLength?.value ?? Infinity) : 1;
  const choose = (chosen: readonly File[]) => {
    setProblem(null);
    const room = field.many ? max - files.length - uploads.length : 1;
    const refused =
      chosen.length > room
        ? message(model, 'E_TOO_MANY', { field: label, max })
        : firstRefusal(model, field, chosen);
    if (refused !== null) {
      setProblem(refused);
      say(refused);
      return;
    }
    for (const file of chosen) start(file);
    say(
      chosen.length === 1
        ? t('fields.uploadingOne', { name: chosen[0]!.name })
        : t('fields.uploadingMany', { n: chosen.length }),
    );
  };
  const remove = (file: FileInfo) => {
    setProblem(null);
    give(files.filter((f) => f.id !== file.id));
    say(t('fields.removed', { name: file.name }));
  };
  const move = (index: number, by: -1 | 1) => {
    const next = [...files];
    const [file] = next.splice(index, 1);
    if (file === undefined) return;
    next.splice(index + by, 0, file);
    give(next);
    say(t('fields.moved', { name: file.name, place: index + by + 1, total: next.length }));
  };

  const accept = acceptAttribute(field);
  const room = field.many ? files.length + uploads.length < max : files.length === 0 && !uploading;
  // a refusal is the newest word on the field: it shows before what the form says of its value
  const error = problem ?? props.error ?? undefined;
  const help = field.help === '' ? undefined : field.help;
  return (
    <Input.Wrapper
      id={id}
      label={label}
      labelElement="div"
      description={help}
      error={error}
      required={props.required ?? field.required}
      role="group"
      aria-labelledby={`${id}-label`}
    >
      <div data-field-input={field.name}>
        {files.length > 0 && (
          <ul
            className="nf-file-items"
            aria-label={field.many ? t('fields.filesOf', { field: label }) : undefined}
          >
            {files.map((file, index) => (
              <StoredFile key={file.id} file={file} many={field.many}>
                {!disabled && field.many && files.length > 1 && (
                  <>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('fields.moveEarlier', { name: file.name })}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      <IconArrowLeft size={16} aria-hidden="true" />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('fields.moveLater', { name: file.name })}
                      disabled={index === files.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      <IconArrowRight size={16} aria-hidden="true" />
                    </ActionIcon>
                  </>
                )}
                {!disabled && !field.many && (
                  <Button
                    variant="default"
                    size="xs"
                    disabled={!online || uploading}
                    aria-label={t('fields.replaceName', { name: file.name })}
                    onClick={() => replacer.current?.click()}
                  >
                    {t('fields.replace')}
                  </Button>
                )}
                {!disabled && (
                  <Button
                    variant="default"
                    size="xs"
                    aria-label={t('fields.removeName', { name: file.name })}
                    onClick={() => remove(file)}
                  >
                    {t('fields.remove')}
                  </Button>
                )}
              </StoredFile>
            ))}
          </ul>
        )}
        {uploading && (
          <ul className="nf-file-items" aria-label={t('fields.uploadsOf', { field: label })}>
            {uploads.map((upload) => (
              <li key={upload.key} className="nf-file-item">
                <div className="nf-file-item-text">
                  <FileName name={upload.name} />
                  <Progress.Root size="sm" mt={4}>
                    <Progress.Section
                      value={upload.size === 0 ? 100 : Math.round((100 * upload.sent) / upload.size)}
                      aria-label={t('fields.uploadProgress', { name: upload.name })}
                    />
                  </Progress.Root>
                </div>
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconX size={14} aria-hidden="true" />}
                  aria-label={t('fields.cancelUpload', { name: upload.name })}
                  onClick={() => {
                    cancel(upload.key);
                    say(t('fields.uploadCancelled', { name: upload.name }));
                  }}
                >
                  {t('fields.cancel')}
                </Button>
              </li>
            ))}
          </ul>
        )}
        {!disabled && !online && (
          <Group gap={6} wrap="nowrap" mb="xs">
            <IconCloudOff size={16} aria-hidden="true" />
            <Text size="sm" c="dimmed">
              {t('fields.offline')}
            </Text>
          </Group>
        )}
        {!disabled && room && (
          <Group gap="xs" align="stretch" grow preventGrowOverflow={false}>
            <DropZone
              name={t(field.many ? 'fields.chooseFiles' : 'fields.chooseFile', { field: label })}
              zoneName={t(field.many ? 'fields.zoneMany' : 'fields.zoneOne', { field: label })}
              accept={accept}
              multiple={field.many}
              disabled={!online}
              invalid={error !== undefined}
              describedBy={describedBy(id, help !== undefined, error !== undefined)}
              camera={takesPhotos(field) && coarsePointer() ? t('fields.takePhoto', { field: label }) : null}
              onFiles={choose}
            >
              {t(field.many ? 'fields.dropMany' : 'fields.dropOne')}
            </DropZone>
          </Group>
        )}
        {!disabled && room && (
          <Text id={`${id}-limits`} size="xs" c="dimmed" mt={4}>
            {limits(model, field, t)}
          </Text>
        )}
        {!disabled && !field.many && (
          <input
            ref={replacer}
            type="file"
            hidden
            tabIndex={-1}
            aria-label={t('fields.chooseAnother', { field: label })}
            accept={accept}
            onChange={(event) => {
              const chosen = Array.from(event.currentTarget.files ?? []).slice(0, 1);
              event.currentTarget.value = '';
              if (chosen.length > 0) choose(chosen);
            }}
          />
        )}
        <VisuallyHidden aria-live="polite">{said}</VisuallyHidden>
      </div>
    </Input.Wrapper>
  );
}

/** One stored file in the form: its thumbnail or icon, its name and size, and its buttons. */
function StoredFile({ file, many, children }: { file: FileInfo; many: boolean; children: ReactNode }) {
  const locale = useModel().product.locale;
  return (
    <li className="nf-file-item">
      {isPicture(file) ? (
        <Thumbnail file={file} width={320} size={many ? 56 : 72} />
      ) : (
        <FileIcon file={file} size={28} />
      )}
      <div className="nf-file-item-text">
        <FileName name={file.name} />
        {file.size > 0 && (
          <Text size="xs" c="dimmed">
            {formatFileSize(file.size, locale)}
          </Text>
        )}
      </div>
      <Group gap={4} wrap="nowrap">
        {children}
      </Group>
    </li>
  );
}

/** A `FileInfo` as a form value: the record's JSON. */
function asValue(file: FileInfo): Value {
  return { id: file.id, name: file.name, size: file.size, type: file.type };
}

/** The first of the chosen files the field cannot hold, as the catalogue says it. */
function firstRefusal(model: Model, field: Field, chosen: readonly File[]): string | null {
  for (const file of chosen) {
    const refused = refusal(model, field, file);
    if (refused !== null) return refused;
  }
  return null;
}

/** What the field takes, under the zone: `application/pdf, image/* · up to 10 MB`. */
function limits(model: Model, field: Field, t: I18n['t']): string {
  const size = formatFileSize(maxFileSize(model, field), model.product.locale);
  return field.accept === null
    ? t('fields.upTo', { size })
    : t('fields.typesUpTo', { types: field.accept.join(', '), size });
}

/**
 * The ids of what describes the drop zone: the field's help and error (the wrapper's, by Mantine's
 * ids), and the types and size it takes.
 */
function describedBy(id: string, help: boolean, error: boolean): string {
  return [help ? `${id}-description` : null, error ? `${id}-error` : null, `${id}-limits`]
    .filter((x) => x !== null)
    .join(' ');
}

/** The entity a field of the model belongs to: its uploads are held to that field's rules. */
function entityOf(model: Model, field: Field): string | undefined {
  return Object.values(model.entities).find((entity) => entity.fields[field.name] === field)?.name;
}

/** Whether the main pointer is a finger: a phone or a tablet, which has a camera to offer. */
function coarsePointer(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}
