/**
 * The list's text inputs (its search, its text and number filters): what is typed commits after a
 * pause, and the input follows the value it is given when that changes elsewhere.
 */
import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { type ReactNode, useEffect, useState } from 'react';

/** Typing commits after this pause: one request per word, not per key. */
export const TYPING_DELAY_MS = 350;

/**
 * A text input that commits what is typed after a pause (and at once on Enter), and follows the
 * value it is given when that changes elsewhere — the back button, "clear filters".
 */
export function TypedInput({
  label,
  hiddenLabel = false,
  value,
  placeholder,
  inputMode,
  invalid,
  onCommit,
  leftSection,
  type,
  lang,
}: {
  label: string;
  hiddenLabel?: boolean;
  value: string;
  placeholder?: string;
  inputMode?: 'decimal' | 'search' | 'text';
  invalid?: (text: string) => string | null;
  onCommit(value: string): void;
  leftSection?: ReactNode;
  type?: 'search' | 'text';
  /** The language the text is written in, when it is not the page's (a number's format). */
  lang?: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const problem = invalid?.(text) ?? null;
  const commit = useDebouncedCallback((next: string) => {
    if ((invalid?.(next) ?? null) === null && next.trim() !== value.trim()) onCommit(next);
  }, TYPING_DELAY_MS);
  return (
    <TextInput
      {...(hiddenLabel ? { 'aria-label': label } : { label })}
      type={type ?? 'text'}
      value={text}
      placeholder={placeholder}
      inputMode={inputMode}
      lang={lang}
      error={problem}
      leftSection={leftSection}
      onChange={(event) => {
        setText(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit.flush();
      }}
    />
  );
}
