/**
 * The input of one field, chosen by its type's `input` in the field-type table: every control is controlled, takes the field's wire
 * value and gives one back — decimals as exact strings, dates and times as the API writes them,
 * instants in UTC — so a form holds exactly what the server will be sent. What the reader types
 * and sees follows their locale (the localized model's `product.locale`): `25/12/2026` in French,
 * `25.12.2026` in German, `2026/12/25` in Japanese, `12,50` wherever the decimal mark is a comma.
 *
 * Text inputs carry no `maxlength` attribute: a browser counts UTF-16 code units there (an emoji is
 * two), while `maxLength` counts characters (code points), as the server, CEL's `size()` and SQL do.
 * The engine's check says "at most N characters" beside the field instead (decision 0026).
 */
import {
  MultiSelect,
  NativeSelect,
  Switch,
  Text,
  TextInput,
  Textarea,
  type TextInputProps,
} from '@mantine/core';
import { FIELD_TYPE_INFO, type Value, enumLabel, isColor, normalizeColor } from '@ninefold/model';
import { useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { RefPicker } from '../components/RefPicker';
import { FileInput } from './FileInput';
import { message } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import {
  decimalFromText,
  decimalToText,
  integerFromText,
  jsonFromText,
  jsonToText,
  padToScale,
  sameValue,
} from './input-values';
import {
  dateFromText,
  dateOrder,
  dateTimeFromText,
  dateTimeToText,
  dateToText,
  timeFromText,
  timeToText,
} from './locale-dates';
import { type FieldInputProps } from './field-input-props';

export type { FieldInputProps };

/**
 * The right control for a field's type.
 *
 * @example <FieldInput field={entity.fields.amount} value={value} onChange={setValue} error={error} />
 */
export function FieldInput(props: FieldInputProps) {
  const { field } = props;
  const common = {
    label: props.label ?? field.label,
    description: field.help === '' ? undefined : field.help,
    error: props.error,
    disabled: props.disabled ?? false,
    required: props.required ?? field.required,
    onBlur: () => props.onBlur?.(),
  };

  const input = FIELD_TYPE_INFO[field.type].input;
  switch (input) {
    case 'ref':
      return (
        <RefPicker
          {...common}
          entity={field.to ?? ''}
          multiple={field.many}
          value={refValue(props.value)}
          onChange={(next) => props.onChange(next)}
        />
      );
    case 'select':
      return <EnumInput {...props} common={common} />;
    case 'switch':
      return (
        <Switch
          label={common.label}
          // the label wraps the help too: the name is the label alone, the help its description
          aria-label={typeof common.label === 'string' ? common.label : undefined}
          description={common.description}
          error={common.error}
          disabled={common.disabled}
          checked={props.value === true}
          onChange={(event) => props.onChange(event.currentTarget.checked)}
          onBlur={common.onBlur}
        />
      );
    case 'textarea':
      return (
        <Textarea
          {...common}
          autosize
          minRows={2}
          maxRows={12}
          value={typeof props.value === 'string' ? props.value : ''}
          onChange={(event) => props.onChange(emptyToNull(event.currentTarget.value))}
        />
      );
    case 'json':
      return <JsonInput {...props} common={common} />;
    case 'integer':
    case 'decimal':
      return <NumberText {...props} common={common} integer={input === 'integer'} />;
    case 'date':
    case 'time':
    case 'datetime':
      return <CalendarInput {...props} common={common} input={input} />;
    case 'color':
      return <ColorText {...props} common={common} />;
    case 'file':
      return <FileInput {...props} />;
    case 'text':
    case 'email':
    case 'url':
    case 'tel': {
      const kind = TEXT_KINDS[input];
      return (
        <TextInput
          {...common}
          type={kind.type}
          autoComplete={kind.autoComplete}
          inputMode={kind.inputMode}
          value={
            typeof props.value === 'string' ? props.value : props.value == null ? '' : String(props.value)
          }
          onChange={(event) => props.onChange(emptyToNull(event.currentTarget.value))}
        />
      );
    }
    default:
      return input satisfies never;
  }
}

type Common = Pick<TextInputProps, 'label' | 'description' | 'error' | 'disabled' | 'required'> & {
  onBlur(): void;
};

const TEXT_KINDS: Readonly<
  Record<
    'text' | 'email' | 'url' | 'tel',
    { type: string; autoComplete: string; inputMode: TextInputProps['inputMode'] }
  >
> = {
  text: { type: 'text', autoComplete: 'off', inputMode: 'text' },
  email: { type: 'email', autoComplete: 'email', inputMode: 'email' },
  url: { type: 'url', autoComplete: 'url', inputMode: 'url' },
  tel: { type: 'tel', autoComplete: 'tel', inputMode: 'tel' },
};

function emptyToNull(text: string): string | null {
  return text === '' ? null : text;
}

function refValue(value: Value | undefined): string | readonly string[] | null {
  if (typeof value === 'string') return value === '' ? null : value;
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return null;
}

/**
 * The text an input shows for a value: kept as typed while it means the same value, replaced when
 * the value changes from outside (a reset, a reload).
 */
function useDraft(value: Value | undefined, toText: (value: Value | undefined) => string) {
  const [draft, setDraft] = useState(() => ({ text: toText(value), value }));
  if (!sameValue(draft.value ?? null, value ?? null)) {
    const next = { text: toText(value), value };
    setDraft(next); // adjusting state to a new prop during render, as React recommends
    return [next.text, setDraft] as const;
  }
  return [draft.text, setDraft] as const;
}

function EnumInput(props: FieldInputProps & { common: Common }) {
  const { field, common } = props;
  const t = useT();
  const values = field.values ?? [];
  if (field.many) {
    const selected = Array.isArray(props.value) ? props.value.map(String) : [];
    return (
      <MultiSelect
        {...common}
        data={values.map((value) => ({ value, label: enumLabel(field, value) }))}
        value={selected}
        onChange={(next) => props.onChange(next)}
        searchable={values.length > 7}
        clearable={!common.required}
        comboboxProps={{ withinPortal: true }}
        placeholder={common.disabled ? undefined : t('fields.choose')}
      />
    );
  }
  const current = typeof props.value === 'string' ? props.value : '';
  const blank = !common.required || current === '';
  return (
    <NativeSelect
      {...common}
      data={[
        ...(blank ? [{ value: '', label: common.required ? t('fields.choose') : '—' }] : []),
        ...values.map((value) => ({ value, label: enumLabel(field, value) })),
        // a value the spec no longer lists still shows as what it is
        ...(current !== '' && !values.includes(current) ? [{ value: current, label: current }] : []),
      ]}
      value={current}
      onChange={(event) => props.onChange(emptyToNull(event.currentTarget.value))}
    />
  );
}

/** Integers, decimals and money as text: exact, in the locale's notation, money with its currency. */
function NumberText(props: FieldInputProps & { common: Common; integer: boolean }) {
  const { field, common, integer } = props;
  const locale = useModel().product.locale;
  const [text, setDraft] = useDraft(props.value, (value) =>
    integer ? (value == null ? '' : String(value)) : decimalToText(value, locale),
  );
  const parse = (raw: string): Value => (integer ? integerFromText(raw) : decimalFromText(raw, locale));
  const scale = field.scale ?? 2;
  const currency = field.currency ?? null;
  return (
    <TextInput
      {...common}
      type="text"
      inputMode={integer ? 'numeric' : 'decimal'}
      autoComplete="off"
      value={text}
      leftSection={currency === null ? undefined : <CurrencyMark currency={currency} locale={locale} />}
      leftSectionWidth={currency === null ? undefined : 48}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        const value = parse(raw);
        setDraft({ text: raw, value });
        props.onChange(value);
      }}
      onBlur={() => {
        // shown as it will be stored: 12.5 becomes 12.50 in a field of two decimals
        if (!integer && typeof props.value === 'string') {
          const padded = padToScale(props.value, scale);
          if (padded !== props.value) {
            setDraft({ text: decimalToText(padded, locale), value: padded });
            props.onChange(padded);
          }
        }
        common.onBlur();
      }}
    />
  );
}

function CurrencyMark({ currency, locale }: { currency: string; locale: string }) {
  let symbol = currency;
  try {
    symbol =
      new Intl.NumberFormat(locale, { style: 'currency', currency })
        .formatToParts(0)
        .find((part) => part.type === 'currency')?.value ?? currency;
  } catch {
    // an unknown code shows as it is
  }
  return (
    <Text size="sm" c="dimmed" title={currency}>
      {symbol}
    </Text>
  );
}

/**
 * Dates, times and instants as text in the reader's locale, not the browser's pickers: those
 * follow the browser's language (a French reader on an English browser would meet `mm/dd/yyyy`).
 * The placeholder shows the order; a text that is no date stays as typed, for the check to refuse.
 */
function CalendarInput(props: FieldInputProps & { common: Common; input: 'date' | 'time' | 'datetime' }) {
  const { common, input } = props;
  const t = useT();
  const locale = useModel().product.locale;
  const toText = (value: Value | undefined) =>
    input === 'date'
      ? dateToText(value, locale)
      : input === 'time'
        ? timeToText(value, locale)
        : dateTimeToText(value, locale);
  const fromText = (raw: string) =>
    input === 'date'
      ? dateFromText(raw, locale)
      : input === 'time'
        ? timeFromText(raw, locale)
        : dateTimeFromText(raw, locale);
  const [text, setDraft] = useDraft(props.value, toText);
  const { order, separator } = dateOrder(locale);
  const letters = { day: t('fields.day'), month: t('fields.month'), year: t('fields.year') };
  const datePattern = order.map((part) => letters[part]).join(separator);
  const placeholder =
    input === 'date'
      ? datePattern
      : input === 'time'
        ? t('fields.timePattern')
        : `${datePattern} ${t('fields.timePattern')}`;
  return (
    <TextInput
      {...common}
      type="text"
      inputMode={input === 'time' ? 'text' : 'numeric'}
      autoComplete="off"
      placeholder={common.disabled ? undefined : placeholder}
      value={text}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        const value = fromText(raw);
        setDraft({ text: raw, value });
        props.onChange(value);
      }}
      onBlur={() => {
        // shown as the locale writes it once left: `1.2.2026` becomes `01.02.2026`
        const value = fromText(text);
        if (value !== null && value !== text.trim()) setDraft({ text: toText(value), value });
        common.onBlur();
      }}
    />
  );
}

/** The native picker drawn as a swatch in the input's left section. */
const COLOR_PICKER = {
  width: 22,
  height: 22,
  padding: 0,
  border: 'none',
  background: 'none',
  cursor: 'pointer',
} as const;

/**
 * A colour as its code, `#rrggbb`, with the browser's colour picker beside it: typed or picked, a
 * colour is given back in lower case; anything else is given back as typed, for the check to refuse.
 */
function ColorText(props: FieldInputProps & { common: Common }) {
  const { common } = props;
  const t = useT();
  const text = typeof props.value === 'string' ? props.value : '';
  const give = (raw: string) => props.onChange(isColor(raw) ? normalizeColor(raw) : emptyToNull(raw));
  return (
    <TextInput
      {...common}
      type="text"
      autoComplete="off"
      spellCheck={false}
      maxLength={7}
      placeholder={t('common.colourPlaceholder')}
      value={text}
      leftSection={
        <input
          type="color"
          style={COLOR_PICKER}
          aria-label={
            typeof common.label === 'string'
              ? t('fields.pickColour', { field: common.label })
              : t('fields.pickAColour')
          }
          disabled={common.disabled}
          value={isColor(text) ? normalizeColor(text) : '#000000'}
          onChange={(event) => give(event.currentTarget.value)}
        />
      }
      onChange={(event) => give(event.currentTarget.value)}
    />
  );
}

/** JSON as text: given back once it parses, its problem shown beside it until then. */
function JsonInput(props: FieldInputProps & { common: Common }) {
  const model = useModel();
  const t = useT();
  const { common } = props;
  const [text, setDraft] = useDraft(props.value, jsonToText);
  const [problem, setProblem] = useState<string | null>(null);
  const [left, setLeft] = useState(false); // a problem shows once the user leaves the field
  return (
    <Textarea
      {...common}
      error={common.error ?? (left ? problem : null) ?? undefined}
      autosize
      minRows={3}
      maxRows={16}
      spellCheck={false}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      value={text}
      onChange={(event) => {
        const raw = event.currentTarget.value;
        const parsed = jsonFromText(raw);
        if (parsed.ok) {
          setDraft({ text: raw, value: parsed.value });
          if (problem !== null) {
            setProblem(null);
            props.onInvalid?.(null);
          }
          props.onChange(parsed.value);
          return;
        }
        setDraft({ text: raw, value: props.value ?? null });
        const said = message(model, 'E_FORMAT', {
          field: common.label as string,
          expected: t('fields.jsonExpected', { example: '{"screen": "65in"}' }),
        });
        setProblem(said);
        props.onInvalid?.(said);
      }}
      onBlur={() => {
        const parsed = jsonFromText(text);
        if (parsed.ok && parsed.value !== null)
          setDraft({ text: jsonToText(parsed.value), value: parsed.value });
        setLeft(true);
        common.onBlur();
      }}
    />
  );
}
