/**
 * A `detail` screen: one record with its state, the fields its reader may see, the actions they
 * may take now, the records that point at it (its related sections), and its history. The server decides what is readable and which transitions may
 * fire; the engine, the same rules in the browser, decides whether to offer edit and delete.
 */
import '../../styles/detail';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { type ApiRecord, type Entity, type Screen } from '@ninefold/model';
import { IconPencil } from '@tabler/icons-react';
import { useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/http';
import { useHistory, useRecord } from '../../api/records';
import { recordTitle } from '../../api/ref-labels';
import { ErrorPanel } from '../../components/ErrorPanel';
import { RefLink } from '../../components/FieldValue';
import { StateBadge } from '../../components/StateBadge';
import { formatDateTime } from '../../format/values';
import { useT } from '../../i18n/I18nProvider';
import { richText } from '../../i18n/rich';
import { PendingWrites, useUserQueue } from '../../offline/PendingWrites';
import { isWaiting } from '../../offline/queue';
import { NotFoundPage } from '../../pages/NotFoundPage';
import { useAuthorizer } from '../../runtime/access';
import { listPath, screenFor, screenPath } from '../../runtime/paths';
import { useModel } from '../../runtime/runtime';
import { useDocumentTitle } from '../../shell/title';
import { DeleteAction } from './DeleteAction';
import { HistoryTimeline } from './HistoryTimeline';
import { LiveNote } from './LiveNote';
import { RecordFields } from './RecordFields';
import { RelatedRecords } from './RelatedRecords';
import { lowerLabel } from './related';
import { TransitionActions } from './TransitionActions';

export default function DetailScreen({ screen }: { screen: Screen }) {
  const model = useModel();
  const { id = '' } = useParams();
  const entity = screen.entity === null ? undefined : model.entities[screen.entity];
  if (entity === undefined) throw new Error(`The detail screen ${screen.id} has no entity.`);
  // a new record is a new page: nothing of the previous one's dialogs or focus carries over
  return <RecordDetail key={id} screen={screen} entity={entity} id={id} />;
}

function RecordDetail({ screen, entity, id }: { screen: Screen; entity: Entity; id: string }) {
  const { data: record, error, refetch } = useRecord(entity, id);
  const t = useT();
  const locale = useModel().product.locale;
  const missing = error instanceof ApiError && error.status === 404;
  // the not-found page names itself; a loaded record is named by its title, with the screen's
  useDocumentTitle(
    missing
      ? t('detail.notFound')
      : record !== undefined
        ? `${recordTitle(entity, record)} · ${screen.title}`
        : screen.title,
  );

  // gone since it was loaded (deleted elsewhere, then reloaded): the old copy is not shown
  if (missing) return <NotFoundPage entity={entity.name} />;
  if (record !== undefined) return <Loaded screen={screen} entity={entity} record={record} />;
  if (error !== null)
    return (
      <ErrorPanel
        error={error}
        title={t('detail.loadFailed', { title: screen.title })}
        onRetry={() => void refetch()}
        alwaysRetry
      />
    );
  return (
    <Center py="xl">
      <Loader aria-label={t('detail.loading', { entity: lowerLabel(entity.label, locale) })} />
    </Center>
  );
}

function Loaded({ screen, entity, record }: { screen: Screen; entity: Entity; record: ApiRecord }) {
  const model = useModel();
  const access = useAuthorizer();
  const navigate = useNavigate();
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  const title = recordTitle(entity, record);

  const editScreen = screenFor(model, entity.name, 'edit');
  const mayEdit =
    screen.actions.includes('edit') &&
    editScreen !== undefined &&
    access.mayOpen(editScreen) &&
    access.can('update', entity.name, record);
  const mayDelete = screen.actions.includes('delete') && access.can('delete', entity.name, record);
  const transitions = screen.actions.filter(
    (name) => model.states[entity.name]?.transitions[name] !== undefined,
  );
  const back = listPath(model, entity.name);
  const queue = useUserQueue();
  const ownWrites = queue.writes.filter((w) => w.recordId === record.id);
  // a transition or a delete decided on a record that has a change still to send would be decided
  // on what the server no longer has: they wait until it is sent (an edit may follow it)
  const waiting = ownWrites.some(isWaiting);

  return (
    <Stack gap="lg" maw={1100} data-record={record.id}>
      <Stack gap={4}>
        {back === null ? (
          <Text size="sm" c="dimmed">
            {screen.title}
          </Text>
        ) : (
          <Anchor component={Link} to={back} size="sm" c="dimmed">
            {screen.title}
          </Anchor>
        )}
        <Group gap="sm" align="center" wrap="wrap">
          <Title
            order={1}
            ref={heading}
            tabIndex={-1}
            // the record's title reads in its own direction (an English title in an Arabic page)
            dir="auto"
            style={{ overflowWrap: 'anywhere', outline: 'none' }}
          >
            {title}
          </Title>
          <StateBadge entity={entity.name} state={record.state} />
          <LiveNote entity={entity} id={record.id} />
        </Group>
      </Stack>

      <Group gap="xs" wrap="wrap" role="group" aria-label={t('detail.actions')}>
        {mayEdit && (
          <Button
            component={Link}
            to={screenPath(editScreen, record.id)}
            variant="default"
            size="sm"
            leftSection={<IconPencil size={16} aria-hidden />}
          >
            {t('detail.edit')}
          </Button>
        )}
        <TransitionActions
          entity={entity.name}
          record={record}
          names={transitions}
          onDone={() => heading.current?.focus()}
          disabled={waiting}
        />
        {mayDelete && (
          <DeleteAction
            entity={entity}
            record={record}
            onDeleted={() => void navigate(back ?? '/', { replace: true })}
            disabled={waiting}
          />
        )}
      </Group>

      {queue.key !== null && ownWrites.length > 0 && (
        <Alert
          color={waiting ? 'blue' : 'red'}
          title={waiting ? t('detail.notSentYet') : t('detail.notSent')}
          data-testid="record-pending"
        >
          <Stack gap="sm">
            <Text size="sm">{waiting ? t('detail.waitingBody') : t('detail.refusedBody')}</Text>
            <PendingWrites queue={queue.key} writes={ownWrites} showRecordLink={false} />
          </Stack>
        </Alert>
      )}

      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <RecordFields entity={entity} record={record} names={screen.fields} />
        <Divider my="md" />
        <SystemInfo entity={entity} record={record} />
      </Paper>

      <RelatedRecords screen={screen} record={record} />

      <section aria-labelledby="nf-history-heading">
        <Stack gap="sm">
          <Title order={2} size="h3" id="nf-history-heading">
            {t('detail.history')}
          </Title>
          <HistoryTimeline entity={entity} id={record.id} />
        </Stack>
      </section>
    </Stack>
  );
}

/** When the record was created and last changed, and by whom (the last change's author comes from the history). */
function SystemInfo({ entity, record }: { entity: Entity; record: ApiRecord }) {
  const locale = useModel().product.locale;
  const t = useT();
  const { data: history } = useHistory(entity, record.id);
  // undefined until the history is loaded; null when the system made the last change
  const lastBy = history?.at(-1)?.by;
  const changed = record.updatedAt !== record.createdAt;
  const created = <time dateTime={record.createdAt}>{formatDateTime(record.createdAt, locale)}</time>;
  const updated = <time dateTime={record.updatedAt}>{formatDateTime(record.updatedAt, locale)}</time>;
  return (
    <Text size="sm" c="dimmed" data-testid="system-info">
      {record.createdBy === null
        ? richText(t, 'detail.created', { at: created })
        : richText(t, 'detail.createdBy', {
            at: created,
            by: <RefLink entity="User" id={record.createdBy} />,
          })}
      {changed && (
        <>
          {' · '}
          {lastBy === null
            ? richText(t, 'detail.changedBySystem', { at: updated })
            : typeof lastBy === 'string'
              ? richText(t, 'detail.changedBy', { at: updated, by: <RefLink entity="User" id={lastBy} /> })
              : richText(t, 'detail.changed', { at: updated })}
        </>
      )}
    </Text>
  );
}
