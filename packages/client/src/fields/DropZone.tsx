/**
 * Where files are dropped or chosen: a zone that takes files dragged onto it (native drag-and-drop
 * events) and opens the browser's file picker when clicked or, from the keyboard, on Enter or
 * Space. A phone may offer its camera beside it for a field that takes photos. The hidden inputs
 * carry `accept`, so the picker shows the files the field takes.
 */
import { Button, Text } from '@mantine/core';
import { IconCamera, IconUpload } from '@tabler/icons-react';
import { type DragEvent, type KeyboardEvent, type ReactNode, useRef, useState } from 'react';

export interface DropZoneProps {
  /** The picker's accessible name: `Receipt: choose a file`. */
  readonly name: string;
  /** The zone's: its text after the field's label, `Receipt: choose a file or drop it here`. */
  readonly zoneName: string;
  /** What the zone says: `Choose a file or drop it here` (part of its name, as axe asks). */
  readonly children: ReactNode;
  readonly accept: string | undefined;
  readonly multiple: boolean;
  readonly disabled: boolean;
  readonly invalid: boolean;
  /** Offers the camera (`capture="environment"`) too, with this name; null for none. */
  readonly camera: string | null;
  /** The element describing the zone (the field's help and error). */
  readonly describedBy?: string | undefined;
  onFiles(files: readonly File[]): void;
}

/**
 * @example <DropZone name="Receipt: choose a file" zoneName="Receipt: choose a file or drop it here" accept="image/*" multiple={false} … onFiles={start} />
 */
export function DropZone(props: DropZoneProps) {
  const picker = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const open = () => {
    if (!props.disabled) picker.current?.click();
  };
  const take = (list: FileList | null) => {
    const files = list === null ? [] : Array.from(list);
    if (files.length > 0) props.onFiles(props.multiple ? files : files.slice(0, 1));
  };
  const over = (event: DragEvent) => {
    if (props.disabled || !event.dataTransfer.types.includes('Files')) return;
    event.preventDefault(); // without it the browser opens the dropped file instead
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const chosen = (input: HTMLInputElement) => {
    take(input.files);
    input.value = ''; // the same file chosen again is a new choice
  };
  return (
    <>
      <div
        role="button"
        tabIndex={props.disabled ? -1 : 0}
        aria-label={props.zoneName}
        aria-disabled={props.disabled}
        aria-describedby={props.describedBy}
        className="nf-file-drop"
        data-dragging={dragging || undefined}
        data-invalid={props.invalid || undefined}
        onClick={open}
        onKeyDown={(event: KeyboardEvent) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            open();
          }
        }}
        onDragEnter={over}
        onDragOver={over}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          if (!props.disabled) take(event.dataTransfer.files);
        }}
      >
        <IconUpload size={22} stroke={1.6} aria-hidden="true" />
        <Text size="sm">{props.children}</Text>
      </div>
      <input
        ref={picker}
        type="file"
        hidden
        tabIndex={-1}
        aria-label={props.name}
        accept={props.accept}
        multiple={props.multiple}
        disabled={props.disabled}
        onChange={(event) => chosen(event.currentTarget)}
      />
      {props.camera !== null && (
        <>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconCamera size={16} aria-hidden="true" />}
            disabled={props.disabled}
            onClick={() => camera.current?.click()}
          >
            {props.camera}
          </Button>
          <input
            ref={camera}
            type="file"
            hidden
            tabIndex={-1}
            aria-label={props.camera}
            accept="image/*"
            capture="environment"
            disabled={props.disabled}
            onChange={(event) => chosen(event.currentTarget)}
          />
        </>
      )}
    </>
  );
}
