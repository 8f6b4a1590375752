import '../styles/sign-in';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { API_PATHS, APP_PATHS, type ErrorCode, type Model } from '@ninefold/model';
import { type FormEvent, Suspense, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { lazyComponent } from '../runtime/lazy';
import { describeError, message } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { useSession } from './session';
import { useSignIn } from './session-actions';
import { LoadWholeModel, useNeedsWholeModel } from './whole-model';
import { LanguageSelect } from '../i18n/LanguageMenu';
import { useT } from '../i18n/I18nProvider';
import { type I18n } from '../i18n/i18n';

// only people with two-step sign-in on (or required of them) need it (decision 0041)
const SecondStep = lazyComponent(() => import('./SecondStep').then((module) => module.default));

/** Only a path of this app: never another origin (`//evil.example`), never a scheme. */
export function safeNext(next: string | null): string {
  if (next === null || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}

/** The codes single sign-on sends back to this page. */
const SSO_CODES = ['E_SSO_FAILED', 'E_SSO_NO_ACCOUNT'] as const satisfies readonly ErrorCode[];

/**
 * The message of a single sign-on that did not work, from the code the server put in the address
 * (`?error=E_SSO_FAILED`): only a code of the catalogue, never text from the address (anyone can
 * write an address), and only single sign-on's.
 *
 * @example ssoFailure(model, t, 'E_SSO_NO_ACCOUNT')?.message
 */
export function ssoFailure(
  model: Model,
  t: I18n['t'],
  code: string | null,
): { code: ErrorCode; message: string } | null {
  const known = SSO_CODES.find((c) => c === code);
  if (known === undefined) return null;
  const label = model.auth.oidc?.label ?? t('identity.singleSignOn');
  return {
    code: known,
    message: message(model, known, { value: label, reason: t('identity.ssoRetry') }),
  };
}

/** Where "Sign in with …" goes: the server's start of single sign-on, coming back to `next`. */
function ssoStart(model: Model, next: string): string {
  const base = model.calls.basePath.replace(/\/+$/, '');
  return `${base}/${API_PATHS.oidcStart}?returnTo=${encodeURIComponent(next)}`;
}

export function SignInPage() {
  const model = useModel();
  const t = useT();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const session = useSession();
  const signIn = useSignIn();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  const needsWholeModel = useNeedsWholeModel(session.data != null);

  if (needsWholeModel) return <LoadWholeModel to={next} />;
  if (session.data != null) return <Navigate to={next} replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };
  const failure =
    signIn.error === null ? ssoFailure(model, t, params.get('error')) : describeError(model, signIn.error);
  const expired = params.get('next') !== null && signIn.error === null;
  const second = signIn.data !== undefined && 'mfa' in signIn.data ? signIn.data.mfa : null;
  const challenge = second?.challenge ?? null;

  if (challenge !== null) {
    return (
      <Center mih="100dvh" p="md" component="main">
        <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
          <Suspense fallback={<Text c="dimmed">{t('first.loading')}</Text>}>
            <SecondStep
              challenge={challenge}
              enrol={second?.enrol === true}
              onRestart={() => {
                setPassword('');
                signIn.reset();
              }}
            />
          </Suspense>
        </Paper>
      </Center>
    );
  }
  const oidc = model.auth.oidc;

  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <div>
              <Title order={1} size="h2">
                {model.product.name}
              </Title>
              {model.product.summary !== '' && (
                <Text c="dimmed" size="sm" mt={4}>
                  {model.product.summary}
                </Text>
              )}
            </div>
            {expired && (
              <Alert color="blue" variant="light" role="status">
                {t('identity.signInToContinue')}
              </Alert>
            )}
            {failure !== null && (
              <Alert color="red" role="alert" data-error-code={failure.code}>
                {failure.message}
              </Alert>
            )}
            <TextInput
              label={t('identity.email')}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              data-autofocus
              autoFocus
            />
            <PasswordInput
              label={t('identity.password')}
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={signIn.isPending} fullWidth>
              {t('first.signIn')}
            </Button>
            {model.auth.passwordReset && (
              <Text size="sm" ta="center">
                <Anchor component={Link} to={APP_PATHS.forgotPassword}>
                  {t('identity.forgotPassword')}
                </Anchor>
              </Text>
            )}
            {oidc !== null && (
              <>
                <Divider label={t('identity.or')} labelPosition="center" />
                {/* a full-page navigation: the server sends the browser on to the provider */}
                <Button component="a" href={ssoStart(model, next)} variant="default" fullWidth>
                  {t('identity.signInWith', { provider: oidc.label })}
                </Button>
              </>
            )}
            {model.auth.signUp !== null && (
              <Text size="sm" ta="center">
                <Anchor component={Link} to={APP_PATHS.signUp}>
                  {t('identity.createAccount')}
                </Anchor>
              </Text>
            )}
            <Text size="sm" c="dimmed" ta="center">
              <Anchor component={Link} to="/about">
                {t('first.about')}
              </Anchor>
            </Text>
            <LanguageSelect />
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
