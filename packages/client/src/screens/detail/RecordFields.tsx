import { DataList } from '@mantine/core';
import { FIELD_TYPE_INFO, type ApiRecord, type Entity, isFileInfo } from '@ninefold/model';
import { isPdf } from '../../api/files';
import { FieldValue, RefLink } from '../../components/FieldValue';
import { FileDetail } from '../../components/FileValue';
import { fieldLabel } from '../../format/field-labels';
import { formatDateTime } from '../../format/values';
import { useT } from '../../i18n/I18nProvider';
import { useModel } from '../../runtime/runtime';
import './record-fields.css';

/**
 * The fields of a record the reader may see, in the screen's order (all of them without one): a
 * field the server left out of the record is one the reader may not read, and is not shown.
 * Two columns where there is room, one on a phone. Fields without a value are folded into one
 * "Empty fields (N)" group below the others (decision 0066): what is said comes first.
 */
export function RecordFields({
  entity,
  record,
  names,
}: {
  entity: Entity;
  record: ApiRecord;
  names: readonly string[];
}) {
  const t = useT();
  const order = names.length > 0 ? names : Object.keys(entity.fields);
  // the state is the badge beside the title already
  const items = order.filter((name) => name !== 'state' && record[name] !== undefined);
  const filled = items.filter((name) => !isEmpty(record[name]));
  const empty = items.filter((name) => isEmpty(record[name]));
  return (
    <>
      <FieldList entity={entity} record={record} names={filled} />
      {empty.length > 0 && (
        <details className="nf-empty-fields" data-testid="empty-fields">
          <summary>{t('detail.emptyFields', { n: empty.length })}</summary>
          <FieldList entity={entity} record={record} names={empty} />
        </details>
      )}
    </>
  );
}

/** No value to show: nothing, an empty text, an empty list. */
function isEmpty(value: unknown): boolean {
  return value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function FieldList({
  entity,
  record,
  names,
}: {
  entity: Entity;
  record: ApiRecord;
  names: readonly string[];
}) {
  const t = useT();
  if (names.length === 0) return null;
  return (
    <DataList
      orientation="vertical"
      gap="md"
      styles={{
        root: {
          display: 'grid',
          // at most two columns, and one as soon as two would be narrower than 16rem
          gridTemplateColumns:
            'repeat(auto-fill, minmax(min(100%, max(16rem, calc((100% - var(--mantine-spacing-xl)) / 2))), 1fr))',
          columnGap: 'var(--mantine-spacing-xl)',
        },
      }}
    >
      {names.map((name) => {
        const field = entity.fields[name];
        // long values take the whole row, so that a description is not squeezed into half of it
        const input = field === undefined ? null : FIELD_TYPE_INFO[field.type].input;
        // a file shows as its preview and download link; a gallery or a PDF takes the whole row
        const file = input === 'file' && record[name] !== null;
        const wide =
          field !== undefined &&
          (FIELD_TYPE_INFO[field.type].wide || (file && (field.many || isPdfValue(record[name]))));
        return (
          <DataList.Item key={name} data-field={name} style={wide ? { gridColumn: '1 / -1' } : undefined}>
            <DataList.ItemLabel>{fieldLabel(entity, name, t)}</DataList.ItemLabel>
            <DataList.ItemValue
              style={{ overflowWrap: 'anywhere', ...(wide ? { whiteSpace: 'pre-wrap' } : {}) }}
            >
              {field !== undefined && file ? (
                <FileDetail value={record[name]} label={field.label} />
              ) : field !== undefined ? (
                <FieldValue field={field} value={record[name]} />
              ) : (
                <SystemValue name={name} record={record} />
              )}
            </DataList.ItemValue>
          </DataList.Item>
        );
      })}
    </DataList>
  );
}

function isPdfValue(value: unknown): boolean {
  return isFileInfo(value) && isPdf(value);
}

/** A system column a screen lists among its fields: a timestamp, the author. */
export function SystemValue({ name, record }: { name: string; record: ApiRecord }) {
  const locale = useModel().product.locale;
  const value = record[name];
  if (name === 'createdBy' && typeof value === 'string') return <RefLink entity="User" id={value} />;
  if ((name === 'createdAt' || name === 'updatedAt') && typeof value === 'string')
    return <time dateTime={value}>{formatDateTime(value, locale)}</time>;
  return <>{value == null ? '—' : String(value)}</>;
}
