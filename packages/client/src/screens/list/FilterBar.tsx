/**
 * The filters of a list screen, one input per field suited to its type (its `filter` in the
 * field-type table): several values of an enum or a state, yes/no for a boolean, a range for numbers
 * and dates, "contains" for text, records for a reference, one exact colour. Each filter reads and writes the API's query parameters. With them, a phone's sort
 * choice: the list's choosers, loaded beside the list's code and rendered after its first rows.
 */
import { Box, Input, MultiSelect, SegmentedControl, Select, TextInput } from '@mantine/core';
import {
  FIELD_TYPE_INFO,
  type BoundFormat,
  type Field,
  type Model,
  enumLabel,
  filterParam,
  isColor,
  normalizeColor,
} from '@ninefold/model';
import { type CSSProperties, memo, useId } from 'react';
import { ColorSwatch } from '../../components/FieldValue';
import { RefPicker } from '../../components/RefPicker';
import { useI18n, useT } from '../../i18n/I18nProvider';
import './list.css';
import { type ListColumn } from './columns';
import { sortDirection } from './list-params';
import { TypedInput } from './TypedInput';

/** Changes to the URL's parameters: a string sets one, null removes it. */
export type ParamChanges = Readonly<Record<string, string | null>>;

export interface FilterProps {
  readonly field: Field;
  readonly entity: string;
  readonly filters: Readonly<Record<string, string>>;
  onChange(changes: ParamChanges): void;
}

/**
 * The dropdowns of a list's choosers: in a portal, and in the page only while open. Mantine keeps
 * a closed one in the page and positions it as it mounts, laying the whole page out once more
 * before the list's first frame.
 */
export const DROPDOWN = { withinPortal: true, keepMounted: false } as const;

const NUMBER = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * The filters of a screen in a responsive grid. Memoised: they re-render when they change, not with
 * every page or scroll of the rows below them.
 */
export const FilterBar = memo(function FilterBar({
  model,
  entity,
  fields,
  filters,
  onChange,
}: {
  model: Model;
  entity: string;
  fields: readonly Field[];
  filters: Readonly<Record<string, string>>;
  onChange(changes: ParamChanges): void;
}) {
  return (
    <div className="nf-filters">
      {fields.map((field) => (
        <FieldFilter
          key={field.name}
          model={model}
          field={field}
          entity={entity}
          filters={filters}
          onChange={onChange}
        />
      ))}
    </div>
  );
});

function FieldFilter({ model, ...props }: FilterProps & { model: Model }) {
  const { field } = props;
  if (field.name === 'state') {
    const machine = model.states[props.entity];
    const data = Object.values(machine?.states ?? {}).map((s) => ({ value: s.name, label: s.label }));
    return <ValuesFilter {...props} data={data} />;
  }
  const info = FIELD_TYPE_INFO[field.type];
  switch (info.filter) {
    case 'values': {
      const data = (field.values ?? []).map((v) => ({ value: v, label: enumLabel(field, v) }));
      return field.many ? (
        <ContainsValueFilter {...props} data={data} />
      ) : (
        <ValuesFilter {...props} data={data} />
      );
    }
    case 'yes-no':
      return <BooleanFilter {...props} />;
    case 'range':
      return (
        <RangeFilter
          {...props}
          input={RANGE_INPUTS[info.bounds ?? 'decimal']}
          locale={model.product.locale}
        />
      );
    case 'contains':
      return <TextFilter {...props} />;
    case 'records':
      return <RefFilter {...props} />;
    case 'exact':
      return <ExactFilter {...props} />;
    case 'present':
      return <PresenceFilter {...props} />;
    case null:
      return null;
  }
}

/** Any of several values: `field[in]=a,b`. */
function ValuesFilter({
  field,
  filters,
  onChange,
  data,
}: FilterProps & { data: { value: string; label: string }[] }) {
  const t = useT();
  const key = filterParam(field.name, 'in');
  const value = splitList(filters[key]);
  return (
    <MultiSelect
      label={field.label}
      data={data}
      value={value}
      onChange={(next) => onChange({ [key]: next.length === 0 ? null : next.join(',') })}
      placeholder={value.length === 0 ? t('list.any') : undefined}
      clearable
      searchable={data.length > 7}
      comboboxProps={DROPDOWN}
    />
  );
}

/** A list field holding a value: `tags[contains]=client`. */
function ContainsValueFilter({
  field,
  filters,
  onChange,
  data,
}: FilterProps & { data: { value: string; label: string }[] }) {
  const t = useT();
  const key = filterParam(field.name, 'contains');
  return (
    <Select
      label={field.label}
      data={data}
      value={filters[key] ?? null}
      onChange={(next) => onChange({ [key]: next })}
      placeholder={t('list.any')}
      clearable
      comboboxProps={DROPDOWN}
    />
  );
}

/** Yes, no or either: `field[eq]=true`. */
function BooleanFilter(props: FilterProps) {
  return <Choice {...props} operator="eq" yes="true" no="false" />;
}

/** Whether a file field holds a file: `receipt[isNull]=false` (with one) or `true` (without). */
function PresenceFilter(props: FilterProps) {
  return <Choice {...props} operator="isNull" yes="false" no="true" />;
}

/** Any, yes or no, as the query value of one operator. */
function Choice({
  field,
  filters,
  onChange,
  operator,
  yes,
  no,
}: FilterProps & { operator: 'eq' | 'isNull'; yes: string; no: string }) {
  const t = useT();
  const key = filterParam(field.name, operator);
  const labelId = useId();
  const value = filters[key] === yes || filters[key] === no ? filters[key] : '';
  return (
    <Input.Wrapper label={field.label} labelElement="div" id={labelId}>
      <Box role="radiogroup" aria-labelledby={`${labelId}-label`}>
        <Segments
          data={[
            { value: '', label: t('list.any') },
            { value: yes, label: t('list.yes') },
            { value: no, label: t('list.no') },
          ]}
          value={value}
          onChange={(next) => onChange({ [key]: next === '' ? null : next })}
        />
      </Box>
    </Input.Wrapper>
  );
}

const SEGMENTS = SegmentedControl.classes;
const SEGMENTS_STYLE = { '--sc-shadow': 'var(--mantine-shadow-xs)' } as CSSProperties;

/**
 * Radios drawn as Mantine's full-width SegmentedControl draws them at rest, with its classes.
 * Mantine's own re-renders itself as it mounts and measures the page to slide its indicator,
 * which cost the list's first frame more than all its rows; here the choice moves without sliding.
 */
function Segments({
  data,
  value,
  onChange,
}: {
  data: readonly { value: string; label: string }[];
  value: string;
  onChange(value: string): void;
}) {
  const name = useId();
  return (
    <div
      className={SEGMENTS.root}
      role="radiogroup"
      data-full-width
      data-with-items-borders
      style={SEGMENTS_STYLE}
    >
      {data.map((item) => {
        const active = item.value === value || undefined;
        const id = `${name}-${item.value}`;
        return (
          <div key={item.value} className={SEGMENTS.control} data-active={active}>
            <input
              className={SEGMENTS.input}
              type="radio"
              name={name}
              value={item.value}
              id={id}
              checked={item.value === value}
              onChange={() => onChange(item.value)}
              data-focus-ring="auto"
            />
            <label className={SEGMENTS.label} data-active={active} htmlFor={id}>
              <span className={SEGMENTS.innerLabel}>{item.label}</span>
            </label>
          </div>
        );
      })}
    </div>
  );
}

/** Contains some text, case-insensitively: `field[contains]=lyon`. */
function TextFilter({ field, filters, onChange }: FilterProps) {
  const t = useT();
  const key = filterParam(field.name, 'contains');
  return (
    <TypedInput
      label={field.label}
      value={filters[key] ?? ''}
      placeholder={t('list.contains')}
      onCommit={(next) => onChange({ [key]: next.trim() === '' ? null : next.trim() })}
    />
  );
}

/** One value exactly: `color[eq]=#1e90ff`, a colour shown as its swatch beside it. */
function ExactFilter({ field, filters, onChange }: FilterProps) {
  const t = useT();
  const key = filterParam(field.name, 'eq');
  const color = FIELD_TYPE_INFO[field.type].input === 'color';
  const value = filters[key] ?? '';
  return (
    <TypedInput
      label={field.label}
      value={value}
      placeholder={t(color ? 'common.colourPlaceholder' : 'list.equals')}
      leftSection={color && isColor(value) ? <ColorSwatch color={value} /> : undefined}
      invalid={(text) =>
        !color || text.trim() === '' || isColor(text.trim())
          ? null
          : t('list.colourInvalid', { example: '#1e90ff' })
      }
      onCommit={(next) => {
        const text = next.trim();
        onChange({ [key]: text === '' ? null : color ? normalizeColor(text) : text });
      }}
    />
  );
}

/** Records of the referenced entity: `field[in]=id1,id2`, or `field[contains]=id` for a list of refs. */
function RefFilter({ field, filters, onChange }: FilterProps) {
  const t = useT();
  const op = field.many ? 'contains' : 'in';
  const key = filterParam(field.name, op);
  const target = field.to ?? '';
  if (field.many) {
    return (
      <RefPicker
        entity={target}
        label={field.label}
        value={filters[key] ?? null}
        placeholder={t('list.anyone')}
        onChange={(next) => onChange({ [key]: typeof next === 'string' && next !== '' ? next : null })}
      />
    );
  }
  return (
    <RefPicker
      entity={target}
      label={field.label}
      multiple
      value={splitList(filters[key])}
      placeholder={t('list.any')}
      onChange={(next) => {
        const ids = next === null ? [] : typeof next === 'string' ? [next] : next;
        onChange({ [key]: ids.length === 0 ? null : ids.join(',') });
      }}
    />
  );
}

type RangeInput = 'number' | 'date' | 'datetime' | 'time';

/** The inputs of a range, by the format of the type's bounds. */
const RANGE_INPUTS: Readonly<Record<BoundFormat, RangeInput>> = {
  integer: 'number',
  decimal: 'number',
  date: 'date',
  datetime: 'datetime',
  time: 'time',
};

/** From and to, both inclusive: `field[gte]` and `field[lte]`. */
function RangeFilter({
  field,
  filters,
  onChange,
  input,
  locale,
}: FilterProps & { input: RangeInput; locale: string }) {
  const t = useT();
  const from = filterParam(field.name, 'gte');
  const to = filterParam(field.name, 'lte');
  return (
    <Input.Wrapper label={field.label} labelElement="div">
      <div className="nf-range">
        <RangeBound
          label={t('list.rangeFrom', { field: field.label })}
          placeholder={t('list.from')}
          input={input}
          locale={locale}
          end="start"
          value={filters[from] ?? ''}
          onCommit={(next) => onChange({ [from]: next })}
        />
        <RangeBound
          label={t('list.rangeTo', { field: field.label })}
          placeholder={t('list.to')}
          input={input}
          locale={locale}
          end="end"
          value={filters[to] ?? ''}
          onCommit={(next) => onChange({ [to]: next })}
        />
      </div>
    </Input.Wrapper>
  );
}

function RangeBound({
  label,
  placeholder,
  input,
  locale,
  end,
  value,
  onCommit,
}: {
  label: string;
  placeholder: string;
  input: RangeInput;
  /** The reader's locale (the localized model's): its decimal separator, its order of dates. */
  locale: string;
  end: 'start' | 'end';
  value: string;
  onCommit(value: string | null): void;
}) {
  const { t } = useI18n();
  if (input === 'number') {
    return (
      <TypedInput
        label={label}
        hiddenLabel
        value={localNumber(value, locale)}
        placeholder={placeholder}
        inputMode="decimal"
        lang={locale}
        invalid={(text) =>
          text.trim() === '' || NUMBER.test(plainNumber(text, locale))
            ? null
            : t('list.numberInvalid', { example: localNumber('12.50', locale) })
        }
        onCommit={(next) => onCommit(next.trim() === '' ? null : plainNumber(next, locale))}
      />
    );
  }
  // a datetime range is picked by day: from the start of the first to the end of the last, locally
  const shown = input === 'datetime' ? localDay(value) : value;
  return (
    <TextInput
      aria-label={label}
      // a date input shows the day in the order of its language: day/month in fr-FR
      lang={locale}
      type={input === 'datetime' ? 'date' : input}
      value={shown}
      onChange={(event) => {
        const next = event.currentTarget.value;
        if (next === '') onCommit(null);
        else if (input === 'datetime') onCommit(dayBoundary(next, end));
        else if (input === 'time') onCommit(next.length === 5 ? `${next}:00` : next);
        else onCommit(next);
      }}
    />
  );
}

/** On phones, where there are no column headers: the sort as a choice. */
export function SortSelect({
  columns,
  sort,
  onChange,
}: {
  columns: readonly ListColumn[];
  sort: string;
  onChange(changes: ParamChanges): void;
}) {
  const t = useT();
  if (columns.length === 0) return null;
  const data = columns.flatMap((c) => [
    { value: c.name, label: t('list.sortAscending', { column: c.label }) },
    { value: `-${c.name}`, label: t('list.sortDescending', { column: c.label }) },
  ]);
  const first = sort.split(',')[0] ?? '';
  const current = columns.find((c) => sortDirection(sort, c.name) !== null) === undefined ? null : first;
  return (
    <Select
      aria-label={t('list.sortBy')}
      placeholder={t('list.sortBy')}
      data={data}
      value={current}
      onChange={(next) => onChange({ sort: next })}
      allowDeselect={false}
      comboboxProps={DROPDOWN}
      style={{ flex: '1 1 12rem' }}
    />
  );
}

/** The locale's decimal separator: `,` in fr, de, es and pt. */
function decimalSeparator(locale: string): string {
  const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal');
  return part?.value ?? '.';
}

/**
 * A query's number as the reader writes it.
 *
 * @example localNumber('12.50', 'fr-FR') // '12,50'
 */
export function localNumber(value: string, locale: string): string {
  return value.replace('.', decimalSeparator(locale));
}

/**
 * A number as the reader typed it, as the API takes it: the locale's decimal separator (and a
 * point, which anyone may type) becomes the point; spaces and the grouping of thousands go.
 *
 * @example plainNumber('1 234,5', 'fr-FR') // '1234.5'
 */
export function plainNumber(text: string, locale: string): string {
  const separator = decimalSeparator(locale);
  const group = new Intl.NumberFormat(locale).formatToParts(12345).find((p) => p.type === 'group')?.value;
  let plain = text.trim().replace(/[\s\u00a0\u202f]/g, '');
  if (group !== undefined && group !== separator && !/\s/.test(group)) plain = plain.split(group).join('');
  return separator === '.' ? plain : plain.replace(separator, '.');
}

function splitList(value: string | undefined): string[] {
  return value === undefined || value === '' ? [] : value.split(',');
}

/** The local calendar day of an instant, as a date input shows it. */
function localDay(iso: string): string {
  const date = new Date(iso);
  if (iso === '' || Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The first or last instant of a local day, in UTC as the API takes it. */
function dayBoundary(day: string, end: 'start' | 'end'): string | null {
  const date = new Date(`${day}T${end === 'start' ? '00:00:00.000' : '23:59:59.999'}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
