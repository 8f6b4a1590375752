import { humanize } from '@ninefold/model';
import { Badge } from '@mantine/core';
import { useModel } from '../runtime/runtime';

/** A record's state as a coloured badge, with the state's label from the spec. */
export function StateBadge({ entity, state }: { entity: string; state: string | null | undefined }) {
  const model = useModel();
  if (state == null) return null;
  const def = model.states[entity]?.states[state];
  const label = def?.label ?? humanize(state);
  // a badge never wraps: where a narrow card or column cuts a long label, the whole is on hover
  return (
    <Badge color={def?.color ?? 'gray'} variant="light" data-state={state} title={label} maw="100%">
      {label}
    </Badge>
  );
}
