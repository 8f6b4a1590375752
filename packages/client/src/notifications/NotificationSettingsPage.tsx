/**
 * The signed-in user's notification settings: each notification of the spec with a switch. A
 * mandatory one is shown on and cannot be switched off (the server refuses it too). A change is
 * saved at once; the switch shows what the server kept.
 */
import '../styles/admin';
import { Alert, Stack, Switch, Text, Title } from '@mantine/core';
import { type NotificationSetting } from '@ninefold/model';
import { useUser } from '../auth/session';
import { ErrorPanel } from '../components/ErrorPanel';
import { describeError } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { Loading } from '../admin/Loading';
import { useDocumentTitle } from '../shell/title';
import { useChangeSetting, useNotificationSettings } from './notifications-api';
import { useT } from '../i18n/I18nProvider';

export default function NotificationSettingsPage() {
  const t = useT();
  useDocumentTitle(t('first.notificationSettings'));
  const model = useModel();
  const user = useUser();
  const settings = useNotificationSettings(user.id);
  const change = useChangeSetting(user.id);
  return (
    <Stack gap="md" py="md" maw={640}>
      <Title order={1}>{t('first.notificationSettings')}</Title>
      <Text size="sm" c="dimmed">
        {t('notifications.settingsIntro')}
      </Text>
      {change.isError && (
        <Alert color="red" role="alert" title={t('notifications.notSaved')}>
          {describeError(model, change.error).message}
        </Alert>
      )}
      {settings.isPending ? (
        <Loading />
      ) : settings.isError ? (
        <ErrorPanel error={settings.error} onRetry={() => void settings.refetch()} />
      ) : settings.data.length === 0 ? (
        <Text c="dimmed">{t('notifications.none')}</Text>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {settings.data.map((setting) => (
            <li key={setting.notification}>
              <SettingSwitch
                setting={setting}
                saving={change.isPending && change.variables.notification === setting.notification}
                onChange={(enabled) => change.mutate({ notification: setting.notification, enabled })}
              />
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** A notification's name as people read it: `ticket-answered` → "Ticket answered". */
export function settingLabel(name: string): string {
  const words = name
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function SettingSwitch({
  setting,
  saving,
  onChange,
}: {
  setting: NotificationSetting;
  saving: boolean;
  onChange(enabled: boolean): void;
}) {
  const t = useT();
  return (
    <Switch
      label={settingLabel(setting.notification)}
      description={setting.mandatory ? t('notifications.alwaysSent') : undefined}
      checked={setting.mandatory || setting.enabled}
      disabled={setting.mandatory || saving}
      onChange={(event) => onChange(event.currentTarget.checked)}
    />
  );
}
