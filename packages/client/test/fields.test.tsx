import { MantineProvider } from '@mantine/core';
import { compile } from '@ninefold/language';
import { type Field, type Value } from '@ninefold/model';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { valueView } from '../src/components/FieldValue';
import { FieldInput } from '../src/fields/FieldInput';
import { createI18n } from '../src/i18n/i18n';
import { I18nProvider } from '../src/i18n/I18nProvider';
import {
  dateTimeFromLocalText,
  dateTimeToLocalText,
  decimalFromText,
  decimalToText,
  integerFromText,
  jsonFromText,
  padToScale,
  timeFromText,
  timeToText,
} from '../src/fields/input-values';
import { FilterBar } from '../src/screens/list/FilterBar';

describe('what an input’s text means', () => {
  it('reads decimals exactly in the locale’s notation, and refuses what it cannot read for sure', () => {
    expect(decimalFromText('12.5', 'en-GB')).toBe('12.5');
    expect(decimalFromText(' 1,234.50 ', 'en-GB')).toBe('1234.50');
    expect(decimalFromText('1.234,5', 'de-DE')).toBe('1234.5');
    expect(decimalFromText('12,50', 'de-DE')).toBe('12.50');
    expect(decimalFromText('1’250.75', 'de-CH')).toBe('1250.75');
    expect(decimalFromText('0.1000000000000000055511151231257827', 'en-GB')).toBe(
      '0.1000000000000000055511151231257827',
    );
    // a comma in English is not a decimal mark: "1,5" stays as typed for the engine to refuse
    expect(decimalFromText('1,5', 'en-GB')).toBe('1,5');
    expect(decimalFromText('12.3.4', 'en-GB')).toBe('12.3.4');
    expect(decimalFromText('', 'en-GB')).toBeNull();
    expect(decimalToText('1234.50', 'de-DE')).toBe('1234,50');
    expect(decimalToText('1234.50', 'en-GB')).toBe('1234.50');
    expect(padToScale('12.5', 2)).toBe('12.50');
    expect(padToScale('12', 2)).toBe('12.00');
    expect(padToScale('12.345', 2)).toBe('12.345');
    // regression: trailing zeros already written are digits too ("10.00" stayed "10.00.00" once)
    expect(padToScale('10.00', 2)).toBe('10.00');
    expect(padToScale('10.0', 2)).toBe('10.00');
    expect(padToScale('0.10', 6)).toBe('0.100000');
  });

  it('reads whole numbers, and leaves anything else as text', () => {
    expect(integerFromText('42')).toBe(42);
    expect(integerFromText('-7')).toBe(-7);
    expect(integerFromText('1.5')).toBe('1.5');
    expect(integerFromText('')).toBeNull();
  });

  it('gives times with seconds and instants in UTC, and shows them back as typed', () => {
    expect(timeFromText('09:30')).toBe('09:30:00');
    expect(timeFromText('09:30:15')).toBe('09:30:15');
    expect(timeFromText('')).toBeNull();
    expect(timeToText('09:30:00')).toBe('09:30');
    expect(timeToText('09:30:15')).toBe('09:30:15');
    const instant = dateTimeFromLocalText('2026-03-02T08:30');
    expect(instant).toBe(new Date(2026, 2, 2, 8, 30).toISOString());
    expect(dateTimeToLocalText(instant ?? '')).toBe('2026-03-02T08:30');
    expect(dateTimeFromLocalText('')).toBeNull();
  });

  it('parses JSON, and says when it is not', () => {
    expect(jsonFromText('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(jsonFromText('  ')).toEqual({ ok: true, value: null });
    expect(jsonFromText('{"a": ')).toEqual({ ok: false });
  });
});

describe('a color field', () => {
  const compiled = compile(
    `
product: { name: Labels }
entities:
  Label:
    fields:
      name: { type: string, required: true }
      color: { type: color }
`,
    { file: 'labels.yaml' },
  );
  if (!compiled.ok) throw new Error('the labels spec does not compile');
  const model = compiled.model;
  const color = model.entities['Label']!.fields['color']!;

  /** The input of a field, holding its value as a form does, telling each value it gives back. */
  function Input({ field, given }: { field: Field; given(value: Value): void }) {
    const [value, setValue] = useState<Value>(null);
    return (
      <FieldInput
        field={field}
        value={value}
        onChange={(next) => {
          setValue(next);
          given(next);
        }}
      />
    );
  }

  it('is entered as #rrggbb, typed or picked, and given back in lower case', async () => {
    const given = vi.fn();
    const user = userEvent.setup();
    // the picker's name is one of the app's texts: the language store, loaded, as the app has it
    const i18n = createI18n({ locales: ['en-GB'], wanted: ['en-GB'] });
    await i18n.ready();
    render(
      <MantineProvider>
        <I18nProvider i18n={i18n}>
          <Input field={color} given={given} />
        </I18nProvider>
      </MantineProvider>,
    );
    const text = screen.getByRole('textbox', { name: 'Color' });
    await user.type(text, '#1E90FF');
    expect(given).toHaveBeenLastCalledWith('#1e90ff');
    expect(text).toHaveValue('#1e90ff');
    fireEvent.input(screen.getByLabelText('Pick Color'), { target: { value: '#2e8b57' } });
    expect(given).toHaveBeenLastCalledWith('#2e8b57');
    expect(text).toHaveValue('#2e8b57');
    // what is not a colour is given back as typed, for the check to refuse
    await user.clear(text);
    expect(given).toHaveBeenLastCalledWith(null);
    await user.type(text, 'blue');
    expect(given).toHaveBeenLastCalledWith('blue');
  });

  it('is shown as a swatch of the colour beside its code', () => {
    const { container } = render(<p>{valueView(model, color, '#1e90ff')}</p>);
    expect(container).toHaveTextContent('#1e90ff');
    expect(container.querySelector('.nf-value-swatch')).toHaveStyle({ backgroundColor: '#1e90ff' });
  });

  it('is filtered by one exact colour, and a list is not asked for what is not one', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    const i18n = createI18n({ locales: ['en-GB'], wanted: ['en-GB'] });
    await i18n.ready();
    render(
      <MantineProvider>
        <I18nProvider i18n={i18n}>
          <FilterBar model={model} entity="Label" fields={[color]} filters={{}} onChange={onChange} />
        </I18nProvider>
      </MantineProvider>,
    );
    const filter = screen.getByRole('textbox', { name: 'Color' });
    await user.type(filter, 'blue');
    expect(await screen.findByText('Enter a colour, like #1e90ff')).toBeInTheDocument();
    await user.clear(filter);
    await user.type(filter, '#1E90FF');
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ 'color[eq]': '#1e90ff' }));
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
