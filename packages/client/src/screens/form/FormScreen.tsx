/**
 * The create and edit screens of an entity: refused when the role may not create, or may not
 * update this record; not found when the record does not exist (or may not be seen).
 */
import '../../styles/form';
import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import { type Entity, type Screen } from '@ninefold/model';
import { useState } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/http';
import { recordTitle } from '../../api/ref-labels';
import { useRecord } from '../../api/records';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useUserQueue } from '../../offline/PendingWrites';
import { type QueueKey, type QueuedWrite } from '../../offline/queue';
import { ForbiddenPage } from '../../pages/ForbiddenPage';
import { NotFoundPage } from '../../pages/NotFoundPage';
import { useI18n, useT } from '../../i18n/I18nProvider';
import { useAuthorizer } from '../../runtime/access';
import { useRuntime } from '../../runtime/runtime';
import { useDocumentTitle } from '../../shell/title';
import { RecordForm } from './RecordForm';
import { formFields, newRecordDefaults, recordValues } from './form-model';
import { presetParents } from './parents';

// the account page's profile is a record form too: in this chunk, so that the record form's code
// is one chunk's (shared by two, the bundler split the first page's code into six more files)
export { default as ProfileForm } from '../../identity/ProfileForm';

export default function FormScreen({ screen }: { screen: Screen }) {
  // the form's texts are here before its heading shows: asking for them inside the form would
  // take the heading away again while they load
  const i18n = useI18n();
  if (!i18n.isReady()) throw i18n.ready();
  useDocumentTitle(screen.title);
  const { model } = useRuntime();
  // every visit is a fresh form, even when React never unmounted the last one in between
  const { key } = useLocation();
  const entity = screen.entity === null ? undefined : model.entities[screen.entity];
  if (entity === undefined) return <NotFoundPage />;
  return screen.kind === 'edit' ? (
    <EditForm key={key} screen={screen} entity={entity} />
  ) : (
    <CreateForm key={key} screen={screen} entity={entity} />
  );
}

type Draft = { readonly queue: QueueKey; readonly write: QueuedWrite } | undefined;

/** The refused write of the offline queue the user opened here to fix (`state.offlineDraft`). */
function useDraft(entity: string): Draft {
  const { state } = useLocation();
  const { key, writes } = useUserQueue();
  const wanted = (state as { offlineDraft?: unknown } | null)?.offlineDraft;
  // taken once: the form keeps its values while the queue changes under it
  const [draft] = useState(() => {
    const write = writes.find((w) => w.key === wanted && w.entity === entity && w.problem !== undefined);
    return key === null || write === undefined ? undefined : { queue: key, write };
  });
  return draft;
}

function Heading({ screen, subtitle }: { screen: Screen; subtitle?: string }) {
  return (
    <Stack gap={4} mb="md">
      <Title order={1}>{screen.title}</Title>
      {subtitle !== undefined && (
        <Text c="dimmed" size="sm">
          {subtitle}
        </Text>
      )}
    </Stack>
  );
}

function CreateForm({ screen, entity }: { screen: Screen; entity: Entity }) {
  const draft = useDraft(entity.name);
  const { model, now } = useRuntime();
  const access = useAuthorizer();
  const [search] = useSearchParams();
  // the first values are decided once: a default such as `today` does not move under the user
  const [setup] = useState(() => {
    const defaults = newRecordDefaults(model, entity, { user: access.user, now: now() });
    const fields = formFields(
      screen,
      entity,
      { readable: access.readable(entity.name), writable: access.writable(entity.name, 'create') },
      defaults,
    );
    // opened from a parent's page (`?ticket=<id>`): the parent is set, and the form goes back to it
    const parents = presetParents(model, entity, search);
    return {
      fields,
      initial: recordValues({ ...defaults, ...parents.values, ...draft?.write.body }, fields),
      returnTo: parents.returnTo,
    };
  });
  if (!access.can('create', entity.name)) return <ForbiddenPage />;
  return (
    <>
      <Heading screen={screen} />
      <RecordForm
        screen={screen}
        entity={entity}
        access={access}
        fields={setup.fields}
        initial={setup.initial}
        record={null}
        {...(setup.returnTo === null ? {} : { returnTo: setup.returnTo })}
        {...(draft === undefined ? {} : { draft })}
      />
    </>
  );
}

function EditForm({ screen, entity }: { screen: Screen; entity: Entity }) {
  const draft = useDraft(entity.name);
  const { id = '' } = useParams();
  const access = useAuthorizer();
  const query = useRecord(entity, id);
  const t = useT();

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('form.loading')} />
      </Center>
    );
  }
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiError && error.status === 404) return <NotFoundPage entity={entity.name} />;
    if (error instanceof ApiError && error.status === 403) return <ForbiddenPage />;
    return <ErrorPanel error={error} onRetry={() => void query.refetch()} />;
  }
  const record = query.data;
  if (!access.can('update', entity.name, record)) return <ForbiddenPage />;
  const fields = formFields(
    screen,
    entity,
    {
      readable: access.readable(entity.name, record),
      writable: access.writable(entity.name, 'update', record),
    },
    null,
  );
  return (
    <>
      <Heading screen={screen} subtitle={recordTitle(entity, record)} />
      <RecordForm
        key={record.id}
        screen={screen}
        entity={entity}
        access={access}
        fields={fields}
        // a refused change opened to be fixed: the record as it is now, with the user's values on top
        initial={recordValues(
          draft?.write.recordId === record.id ? { ...record, ...draft.write.body } : record,
          fields,
        )}
        record={record}
        {...(draft?.write.recordId === record.id ? { draft } : {})}
        // the form keeps the record it was opened on: a later fetch replaces it only on Reload
        reload={async () => (await query.refetch()).data}
      />
    </>
  );
}
