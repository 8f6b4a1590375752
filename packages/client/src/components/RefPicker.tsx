/**
 * A searchable picker of records of one entity, for ref fields and ref filters. Options load on
 * demand from the entity's list endpoint — searched with `q` on the server when the entity has
 * search fields, otherwise its first page filtered here — and the current value shows its title.
 */
import { type ComboboxItem, MultiSelect, type OptionsFilter, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { type Entity, type ListPage } from '@ninefold/model';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { recordTitle, useRecordTitles } from '../api/ref-labels';
import { recordKeys } from '../api/records';
import { describeError } from '../runtime/messages';
import { useHttp, useModel } from '../runtime/runtime';
import { useT } from '../i18n/I18nProvider';

export interface RefPickerProps {
  /** The entity the ids belong to. */
  entity: string;
  label: string;
  value: string | readonly string[] | null;
  onChange(value: string | string[] | null): void;
  multiple?: boolean;
  error?: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
  required?: boolean;
  placeholder?: string;
  onBlur?(): void;
}

/** Options per request: enough to pick from, small enough to come back at once. */
const OPTIONS = 25;
const SEARCH_DELAY_MS = 250;

// the server already searched: the options are shown as they came
const serverFiltered: OptionsFilter = ({ options }) => options;

/**
 * @example <RefPicker entity="Department" label="Department" value={id} onChange={setId} />
 */
export function RefPicker(props: RefPickerProps) {
  const model = useModel();
  const t = useT();
  const target = model.entities[props.entity];
  const ids = useMemo(
    () => (props.value === null ? [] : typeof props.value === 'string' ? [props.value] : [...props.value]),
    [props.value],
  );
  const titles = useRecordTitles(props.entity, ids);
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DELAY_MS);

  const selectedLabel = (id: string): string => {
    const title = titles.get(id);
    return title === undefined ? '…' : title === null ? '(hidden)' : title;
  };
  const searchable = target !== undefined && target.search.length > 0;
  // a single picker shows the chosen title in its box: that text is not a search
  const typed =
    !props.multiple && ids.length === 1 && debounced === selectedLabel(ids[0] ?? '') ? '' : debounced;
  const options = useOptions(target, searchable ? typed : '', opened && !props.disabled);

  const items = new Map<string, string>();
  for (const id of ids) items.set(id, selectedLabel(id));
  for (const option of options.data ?? [])
    if (!items.has(option.value)) items.set(option.value, option.label);
  const data: ComboboxItem[] = [...items].map(([value, label]) => ({ value, label }));

  const nothingFound = options.isFetching
    ? t('common.loading')
    : options.isError
      ? describeError(model, options.error).message
      : t('common.nothingFound');
  const common = {
    label: props.label,
    data,
    searchable: true,
    nothingFoundMessage: nothingFound,
    onDropdownOpen: () => setOpened(true),
    onDropdownClose: () => setOpened(false),
    ...(searchable ? { filter: serverFiltered } : {}),
    error: props.error,
    description: props.description,
    disabled: props.disabled ?? false,
    required: props.required ?? false,
    placeholder: props.placeholder ?? (props.disabled ? undefined : t('common.searchPlaceholder')),
    clearable: !props.required,
    comboboxProps: { withinPortal: true },
    onBlur: () => props.onBlur?.(),
  };

  if (props.multiple) {
    return (
      <MultiSelect
        {...common}
        value={ids}
        searchValue={search}
        onSearchChange={setSearch}
        onChange={(next) => props.onChange(next)}
        hidePickedOptions
      />
    );
  }
  return (
    <Select
      {...common}
      value={ids[0] ?? null}
      onSearchChange={setSearch}
      onChange={(next) => props.onChange(next)}
    />
  );
}

/** One page of options for a search, cached per entity and term; the titles land in the label cache. */
function useOptions(entity: Entity | undefined, q: string, enabled: boolean) {
  const http = useHttp();
  const client = useQueryClient();
  const name = entity?.name ?? '';
  return useQuery({
    queryKey: [...recordKeys.all(name), 'options', q],
    queryFn: async ({ signal }) => {
      if (entity === undefined) return [];
      const query: Record<string, string> = { limit: String(OPTIONS) };
      if (q.trim() !== '') query['q'] = q.trim();
      const page = await http.get<ListPage>(entity.resource, { query, signal });
      return page.data.map((record) => {
        const label = recordTitle(entity, record);
        client.setQueryData([...recordKeys.labels(name), record.id], label);
        return { value: record.id, label };
      });
    },
    enabled: enabled && entity !== undefined,
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });
}
