/**
 * `/account/two-step`: the two-step sign-in section on a page of its own, for a link straight to it;
 * the account page (`/account`) shows the same section. The section loads in a chunk of its own.
 */
import { Stack, Title } from '@mantine/core';
import { Suspense } from 'react';
import { Loading } from '../admin/Loading';
import { lazyComponent } from '../runtime/lazy';
import { useDocumentTitle } from '../shell/title';
import { useT } from '../i18n/I18nProvider';

const TwoStepSection = lazyComponent(() => import('./TwoStepSection').then((module) => module.default));

export default function TwoStepPage() {
  const t = useT();
  useDocumentTitle(t('account.twoStep.title'));
  return (
    <Stack gap="md" py="md" maw={640}>
      <Title order={1}>{t('account.security')}</Title>
      <Suspense fallback={<Loading />}>
        <TwoStepSection />
      </Suspense>
    </Stack>
  );
}
