/**
 * `/link#token=…`, where every one-time link leads (decision 0040). The token travels in the
 * fragment, which no server, proxy log or Referer sees; the page reads it once, takes it out of the
 * address bar (a replaced history entry, so neither Back nor a shared screen shows it), asks the
 * server what the link is for, and shows that link's form: an invitation's password, a sign-up's
 * confirmation, a reset's new password. Each signs the person in and goes on to the first screen.
 * A link that no longer works says why, in the catalogue's words, and how to get a new one.
 */
import { Alert, Button, Center, Loader, Paper, Stack, Text } from '@mantine/core';
import { APP_PATHS, type WireLink } from '@ninefold/model';
import { type FormEvent, Suspense, useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { useSession } from '../auth/session';
import { LoadWholeModel, useNeedsWholeModel } from '../auth/whole-model';
import { ApiError } from '../api/http';
import { describeError, message } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { AuthCard } from './AuthCard';
import { NewPasswordInput } from './NewPasswordInput';
import { formProblem } from './form-problem';
import { useInspectLink, useLink } from './identity-api';
import { lazyComponent } from '../runtime/lazy';
import { useT } from '../i18n/I18nProvider';

// only a user with two-step sign-in on, or required of them, needs it (decision 0041)
const SecondStep = lazyComponent(() => import('../auth/SecondStep').then((module) => module.default));

/** The token in the address's fragment (`#token=…`), or null. */
export function tokenOf(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token === null || token === '' ? null : token;
}

export default function LinkPage() {
  const t = useT();
  const location = useLocation();
  const navigate = useNavigate();
  // read once: the address bar loses it right after
  const [token] = useState(() => tokenOf(location.hash));
  useEffect(() => {
    if (location.hash !== '')
      void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [location.hash, location.pathname, location.search, navigate]);

  const session = useSession();
  const needsWholeModel = useNeedsWholeModel(session.data != null);
  const link = useInspectLink(token);
  const action = useLink();

  // the link was right, and the second step (or its required enrolment) comes before the session
  const second = action.data !== undefined && 'mfa' in action.data ? action.data.mfa : null;
  if (second !== null && session.data == null) {
    return (
      <Center mih="100dvh" p="md" component="main">
        <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
          <Suspense fallback={<Text c="dimmed">{t('first.loading')}</Text>}>
            <SecondStep
              challenge={second.challenge}
              enrol={second.enrol === true}
              onRestart={() => void navigate(APP_PATHS.signIn)}
            />
          </Suspense>
        </Paper>
      </Center>
    );
  }
  // signed in by the link: on to the first screen (with the whole model, when this page had not)
  if (action.isSuccess) {
    if (needsWholeModel) return <LoadWholeModel to="/" />;
    return <Navigate to="/" replace />;
  }
  if (token === null) return <Broken error={null} link={null} />;
  if (link.isPending) {
    return (
      <AuthCard title={t('identity.link.checking')} backToSignIn={false}>
        <Center py="md">
          <Loader aria-label={t('identity.link.checking')} />
        </Center>
      </AuthCard>
    );
  }
  if (link.isError) return <Broken error={link.error} link={null} />;
  // used or expired while the page was open: the same page as for a link that arrived so
  if (action.error instanceof ApiError && action.error.code.startsWith('E_LINK_'))
    return <Broken error={action.error} link={link.data} />;
  return <LinkForm link={link.data} token={token} action={action} />;
}

function LinkForm({
  link,
  token,
  action,
}: {
  link: WireLink;
  token: string;
  action: ReturnType<typeof useLink>;
}) {
  const t = useT();
  const model = useModel();
  const [password, setPassword] = useState('');
  const problem = action.error === null ? null : formProblem(model, action.error, ['password']);
  const withPassword = link.purpose !== 'sign-up';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate({ purpose: link.purpose, token, ...(withPassword ? { password } : {}) });
  };
  const title =
    link.purpose === 'invitation'
      ? t('identity.link.invitationTitle')
      : link.purpose === 'sign-up'
        ? t('identity.link.signUpTitle')
        : t('identity.link.resetTitle');
  const intro =
    link.purpose === 'invitation'
      ? t('identity.link.invitationIntro')
      : link.purpose === 'sign-up'
        ? t('identity.link.signUpIntro')
        : t('identity.link.resetIntro');
  return (
    <AuthCard title={title} backToSignIn={false}>
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack>
          <Text size="sm">{intro}</Text>
          <div>
            <Text size="xs" c="dimmed">
              {t('identity.link.account')}
            </Text>
            <Text fw={600} data-testid="link-email">
              {link.email}
            </Text>
          </div>
          {/* the account's name, for password managers to file the new password under */}
          <input type="email" name="username" autoComplete="username" value={link.email} readOnly hidden />
          {problem?.message != null && (
            <Alert color="red" role="alert" data-error-code={problem.code}>
              {problem.message}
            </Alert>
          )}
          {withPassword && (
            <NewPasswordInput
              label={t('identity.link.password')}
              value={password}
              onChange={setPassword}
              error={problem?.fields['password']}
              userInputs={[link.email]}
              autoFocus
            />
          )}
          <Button type="submit" loading={action.isPending} fullWidth>
            {withPassword ? t('identity.link.passwordSubmit') : t('identity.link.signUpSubmit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}

/**
 * Why a link does not work, and the way to a new one: for its purpose when the page knew it (a link
 * that expired or was used while the page was open), otherwise every way there is — the server
 * tells nothing more of a link that no longer works.
 */
function Broken({ error, link }: { error: unknown; link: WireLink | null }) {
  const t = useT();
  const model = useModel();
  const described =
    error === null
      ? { code: 'E_LINK_INVALID', message: message(model, 'E_LINK_INVALID') }
      : describeError(model, error);
  const purpose = link?.purpose ?? null;
  const resetPath =
    purpose === 'password-reset' && link !== null
      ? `${APP_PATHS.forgotPassword}?${new URLSearchParams({ email: link.email }).toString()}`
      : APP_PATHS.forgotPassword;
  const offers = {
    invitation: purpose === null || purpose === 'invitation',
    signUp: (purpose === null || purpose === 'sign-up') && model.auth.signUp !== null,
    reset: (purpose === null || purpose === 'password-reset') && model.auth.passwordReset,
  };
  return (
    <AuthCard title={t('identity.link.broken')}>
      <Alert color="red" role="alert" data-error-code={described.code}>
        {described.message}
      </Alert>
      {offers.reset && (
        <Button component={Link} to={resetPath} variant="light">
          {t('identity.link.newReset')}
        </Button>
      )}
      {offers.signUp && (
        <Button component={Link} to={APP_PATHS.signUp} variant="light">
          {t('identity.link.newSignUp')}
        </Button>
      )}
      {offers.invitation && <Text size="sm">{t('identity.link.askInviter')}</Text>}
    </AuthCard>
  );
}
