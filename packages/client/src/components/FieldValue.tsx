/**
 * Field values for reading, by their type's `cell`: refs as links to their record, URLs and emails
 * as links, colours as swatches, the rest as formatted text. Plain elements with the classes of `values.css`, not Mantine's Text and Anchor:
 * a list's first frame renders hundreds of them.
 */
import { FIELD_TYPE_INFO, type Field, type Model, type Value, isColor } from '@ninefold/model';
import { type ReactNode } from 'react';
import { Link } from 'react-router';
import { useRecordTitle } from '../api/ref-labels';
import { formatValue } from '../format/values';
import { FileCell } from './FileValue';
import { detailPath } from '../runtime/paths';
import { useModel } from '../runtime/runtime';
import './values.css';
import { useT } from '../i18n/I18nProvider';

/** One field's value for reading: refs as links to their record, URLs and emails as links. */
export function FieldValue({ field, value }: { field: Field; value: Value | undefined }) {
  return valueView(useModel(), field, value);
}

/**
 * What `FieldValue` shows, made without a component of its own, for the cells of a list.
 *
 * @example valueView(model, claim.fields.amount, '12.5') // '€12.50'
 */
export function valueView(model: Model, field: Field, value: Value | undefined): ReactNode {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return <EmptyValue />;
  }
  // yes and no in the reader's language (the ICU areas are loaded: lists and records are lazy screens)
  if (field.type === 'boolean' && !Array.isArray(value)) return <BooleanValue value={value === true} />;
  const cell = FIELD_TYPE_INFO[field.type].cell;
  switch (cell) {
    case 'ref': {
      if (field.to === null) break;
      const ids = Array.isArray(value) ? value.map(String) : [String(value)];
      // a list of refs: one chip per record, by its title (decision 0044)
      if (field.many) {
        return (
          <ul className="nf-value-chips" aria-label={field.label}>
            {ids.map((id) => (
              <li key={id} className="nf-value-chip">
                <RefLink entity={field.to ?? ''} id={id} />
              </li>
            ))}
          </ul>
        );
      }
      return ids.map((id, i) => (
        <span key={id}>
          {i > 0 && ', '}
          <RefLink entity={field.to ?? ''} id={id} />
        </span>
      ));
    }
    case 'link':
      if (typeof value === 'string' && /^https?:\/\//i.test(value)) {
        return (
          <a className="nf-value-link" href={value} target="_blank" rel="noopener noreferrer">
            {value}
          </a>
        );
      }
      break;
    case 'mailto':
      if (typeof value === 'string') {
        return (
          <a className="nf-value-link" href={`mailto:${value}`}>
            {value}
          </a>
        );
      }
      break;
    case 'swatch':
      if (typeof value === 'string' && isColor(value)) {
        return (
          <span className="nf-value-color">
            <ColorSwatch color={value} />
            {value}
          </span>
        );
      }
      break;
    case 'file':
    case 'thumbnail':
      // images as small thumbnails, other files as their names, linked (FileValue.tsx)
      return <FileCell value={value} label={field.label} />;
    case 'text':
      break;
    default:
      return cell satisfies never;
  }
  const shown = formatValue(field, value, model.product.locale);
  // what people typed reads in its own direction: an English sentence in an Arabic page keeps its
  // full stop at its end (the Unicode bidi algorithm's first strong letter, `dir="auto"`)
  return field.type === 'string' || field.type === 'text' ? <span dir="auto">{shown}</span> : shown;
}

/** An empty value: a dash, named for screen readers. */
function EmptyValue() {
  const t = useT();
  return (
    <span className="nf-value-dimmed" aria-label={t('common.emptyValue')}>
      —
    </span>
  );
}

function BooleanValue({ value }: { value: boolean }) {
  const t = useT();
  return value ? t('common.yes') : t('common.no');
}

/** A referenced record the reader may not see. */
function HiddenTitle() {
  const t = useT();
  return <span className="nf-value-dimmed">{t('common.hiddenRecord')}</span>;
}

/**
 * A small square of a colour, beside its code: decoration, the code says the colour.
 *
 * @example <ColorSwatch color="#1e90ff" />
 */
export function ColorSwatch({ color }: { color: string }) {
  return <span className="nf-value-swatch" style={{ backgroundColor: color }} aria-hidden="true" />;
}

/**
 * A link to a record's page in the app, or its text alone when it has none.
 *
 * @example <RecordLink path="/claims/0190…" title="Train to Lyon" strong />
 */
export function RecordLink({
  path,
  title,
  strong = false,
}: {
  path: string | null;
  title: string;
  strong?: boolean;
}) {
  if (path === null) return title;
  return (
    <Link to={path} className={strong ? 'nf-value-link nf-value-title' : 'nf-value-link'} dir="auto">
      {title}
    </Link>
  );
}

/** The title of a referenced record, linked to its page when there is one. */
export function RefLink({ entity, id }: { entity: string; id: string }) {
  const model = useModel();
  const { data: title, isPending } = useRecordTitle(entity, id);
  if (isPending) return <span className="nf-value-dimmed">…</span>;
  if (title === null || title === undefined) return <HiddenTitle />;
  return <RecordLink path={detailPath(model, entity, id)} title={title} />;
}
