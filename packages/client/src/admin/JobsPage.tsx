/**
 * The product's jobs for admins (decision 0028): timers, notifications and webhook deliveries
 * waiting, running, done or dead, newest first, filtered by state (kept in the address, so that a
 * link or a reload shows the same), with their attempts, when they run and their last error. A dead
 * job can be retried: the server gives it its attempts back.
 */
import { Alert, Badge, SegmentedControl, Table, Text, VisuallyHidden } from '@mantine/core';
import { JOB_STATES, type JobState, type WireJob } from '@ninefold/model';
import { useSearchParams } from 'react-router';
import { ErrorPanel } from '../components/ErrorPanel';
import { TextButton } from '../components/buttons';
import { formatDateTime } from '../format/values';
import { describeError } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { Loading } from './Loading';
import { useT } from '../i18n/I18nProvider';
import { type MessageKey } from '../i18n/catalogue';
import { AdminFrame } from './AdminFrame';
import { useJobs, useRetryJob } from './admin-api';

const STATE_LABELS: Readonly<Record<JobState, MessageKey>> = {
  pending: 'admin.job.pending',
  running: 'admin.job.running',
  done: 'admin.job.done',
  dead: 'admin.job.dead',
};

const STATE_COLORS: Readonly<Record<JobState, string>> = {
  pending: 'blue',
  running: 'yellow',
  done: 'green',
  dead: 'red',
};

const ALL = 'all';

/** The state the address filters by, or null for all (an unknown one shows all). */
function stateOf(param: string | null): JobState | null {
  return JOB_STATES.find((state) => state === param) ?? null;
}

export default function JobsPage() {
  const t = useT();
  return (
    <AdminFrame title={t('admin.jobs')}>
      <Jobs />
    </AdminFrame>
  );
}

function Jobs() {
  const [params, setParams] = useSearchParams();
  const state = stateOf(params.get('state'));
  const jobs = useJobs(state);
  const retry = useRetryJob();
  const model = useModel();
  const t = useT();

  const filter = (value: string) =>
    setParams(value === ALL ? {} : { state: value }, { replace: true, preventScrollReset: true });

  return (
    <>
      <SegmentedControl
        aria-label={t('admin.state')}
        value={state ?? ALL}
        onChange={filter}
        data={[
          { value: ALL, label: t('admin.all') },
          ...JOB_STATES.map((s) => ({ value: s, label: t(STATE_LABELS[s]) })),
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {retry.isError && (
        <Alert color="red" role="alert" title={t('admin.job.retryFailed')}>
          {describeError(model, retry.error).message}
        </Alert>
      )}
      {jobs.isPending ? (
        <Loading />
      ) : jobs.isError ? (
        <ErrorPanel error={jobs.error} onRetry={() => void jobs.refetch()} />
      ) : jobs.data.length === 0 ? (
        <Text c="dimmed">{state === null ? t('admin.job.none') : t('admin.job.noneIn', { state })}</Text>
      ) : (
        <JobsTable
          jobs={jobs.data}
          locale={model.product.locale}
          retrying={retry.isPending ? retry.variables : null}
          onRetry={(id) => retry.mutate(id)}
        />
      )}
    </>
  );
}

function JobsTable({
  jobs,
  locale,
  retrying,
  onRetry,
}: {
  jobs: readonly WireJob[];
  locale: string;
  retrying: string | null;
  onRetry(id: string): void;
}) {
  const t = useT();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label={t('admin.jobs')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.job.kind')}</Table.Th>
            <Table.Th>{t('admin.state')}</Table.Th>
            <Table.Th>{t('admin.attempts')}</Table.Th>
            <Table.Th>{t('admin.job.runsAt')}</Table.Th>
            <Table.Th>{t('admin.job.lastError')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('admin.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {jobs.map((job) => (
            <Table.Tr key={job.id} data-job-id={job.id}>
              <Table.Td>{job.kind}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={STATE_COLORS[job.state]}>
                  {t(STATE_LABELS[job.state])}
                </Badge>
              </Table.Td>
              <Table.Td>
                {job.attempts} of {job.maxAttempts}
              </Table.Td>
              <Table.Td>{formatDateTime(job.runAt, locale)}</Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {job.lastError ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>
                {job.state === 'dead' && (
                  <TextButton
                    size="xs"
                    variant="default"
                    disabled={retrying === job.id}
                    onClick={() => onRetry(job.id)}
                  >
                    {t('admin.job.retry')}
                  </TextButton>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
