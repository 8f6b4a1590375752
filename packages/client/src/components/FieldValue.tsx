import { Anchor, Text } from '@mantine/core';
import { type Field, type Value } from '@ninefold/spec/model';
import { Link } from 'react-router';
import { useRecordTitle } from '../api/ref-labels';
import { formatValue } from '../format/values';
import { detailPath } from '../runtime/paths';
import { useModel } from '../runtime/runtime';

/** One field's value for reading: refs as links to their record, URLs and emails as links. */
export function FieldValue({ field, value }: { field: Field; value: Value | undefined }) {
  const model = useModel();
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return (
      <Text span c="dimmed" aria-label="empty">
        —
      </Text>
    );
  }
  if (field.type === 'ref' && field.to !== null) {
    const ids = Array.isArray(value) ? value.map(String) : [String(value)];
    return (
      <>
        {ids.map((id, i) => (
          <span key={id}>
            {i > 0 && ', '}
            <RefLink entity={field.to ?? ''} id={id} />
          </span>
        ))}
      </>
    );
  }
  if (field.type === 'url' && typeof value === 'string' && /^https?:\/\//i.test(value)) {
    return (
      <Anchor href={value} target="_blank" rel="noopener noreferrer">
        {value}
      </Anchor>
    );
  }
  if (field.type === 'email' && typeof value === 'string')
    return <Anchor href={`mailto:${value}`}>{value}</Anchor>;
  return <>{formatValue(field, value, model.product.locale)}</>;
}

/** The title of a referenced record, linked to its page when there is one. */
export function RefLink({ entity, id }: { entity: string; id: string }) {
  const model = useModel();
  const { data: title, isPending } = useRecordTitle(entity, id);
  if (isPending)
    return (
      <Text span c="dimmed">
        …
      </Text>
    );
  if (title === null || title === undefined)
    return (
      <Text span c="dimmed">
        (hidden)
      </Text>
    );
  const path = detailPath(model, entity, id);
  return path === null ? (
    <>{title}</>
  ) : (
    <Anchor component={Link} to={path}>
      {title}
    </Anchor>
  );
}
