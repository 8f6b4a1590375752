/**
 * The signed-in user's own User record in the app's record form: the fields their role may read,
 * editable where it may update them, checked by the engine and the server as on any edit screen.
 * Its own chunk: the record form (inputs of every type, the engine's checks) loads only here.
 * The e-mail shows read-only: the account page's "Change e-mail" form changes it (decision 0042).
 */
import '../styles/form';
import { Alert, Center, Loader, Text } from '@mantine/core';
import { type Screen, SIGNED_IN_PATHS } from '@ninefold/model';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRecord } from '../api/records';
import { SESSION_KEY, useUser } from '../auth/session';
import { ErrorPanel } from '../components/ErrorPanel';
import { useAuthorizer } from '../runtime/access';
import { useModel } from '../runtime/runtime';
import { RecordForm } from '../screens/form/RecordForm';
import { formFields, recordValues } from '../screens/form/form-model';
import { useT } from '../i18n/I18nProvider';

/** The account page's form as a screen of the record form: the User's fields, edited in place. */
const PROFILE_SCREEN: Screen = {
  id: 'account-profile',
  path: SIGNED_IN_PATHS.account,
  kind: 'edit',
  entity: 'User',
  title: 'Profile', // the form's name is the account page's section's (`identity.account.profile`)
  roles: null,
  fields: [],
  filters: [],
  where: null,
  sort: null,
  actions: [],
  body: '',
  related: null,
  widgets: [],
  generated: true,
};

export default function ProfileForm() {
  const t = useT();
  const model = useModel();
  const entity = model.entities['User'];
  if (entity === undefined) return <Text c="dimmed">{t('identity.profile.noUser')}</Text>;
  return <Profile entity={entity} />;
}

function Profile({ entity }: { entity: NonNullable<ReturnType<typeof useModel>['entities'][string]> }) {
  const t = useT();
  const user = useUser();
  const access = useAuthorizer();
  const query = useRecord(entity, user.id);
  const client = useQueryClient();
  const [saved, setSaved] = useState(0);
  if (query.isPending) {
    return (
      <Center py="md">
        <Loader aria-label={t('first.loader')} />
      </Center>
    );
  }
  if (query.isError) return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
  const record = query.data;
  const mayUpdate = access.can('update', entity.name, record);
  const fields = formFields(
    PROFILE_SCREEN,
    entity,
    {
      readable: access.readable(entity.name, record),
      // one's own e-mail changes on its own form, which asks to confirm it's you (decision 0042)
      writable: mayUpdate ? withoutEmail(access.writable(entity.name, 'update', record), entity) : [],
    },
    null,
  );
  return (
    <>
      {!mayUpdate && (
        <Text size="sm" c="dimmed">
          {t('identity.profile.readOnly')}
        </Text>
      )}
      {saved > 0 && (
        <Alert color="green" variant="light" role="status" key={saved}>
          {t('identity.profile.saved')}
        </Alert>
      )}
      <RecordForm
        key={`${record.id}:${saved}`}
        // the form is named as the account page names the section, in the reader's language
        screen={{ ...PROFILE_SCREEN, title: t('identity.account.profile') }}
        entity={entity}
        access={access}
        fields={fields}
        initial={recordValues(record, fields)}
        record={record}
        reload={async () => (await query.refetch()).data}
        onSaved={() => {
          setSaved((n) => n + 1);
          // the name and e-mail in the user menu come from the session
          void client.invalidateQueries({ queryKey: SESSION_KEY });
        }}
      />
    </>
  );
}

/** The fields the form may edit, but the e-mail (`null`, every writable field, is spelled out). */
function withoutEmail(
  writable: readonly string[] | null,
  entity: { readonly fields: Readonly<Record<string, unknown>> },
): readonly string[] {
  return (writable ?? Object.keys(entity.fields)).filter((name) => name !== 'email');
}
