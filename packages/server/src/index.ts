/**
 * @ninefold/server — the API of a Ninefold model: Fastify and Kysely over SQLite or PostgreSQL.
 * Only the API: the web app is `@ninefold/web`, a plugin registered on this app; demo accounts and
 * data are `@ninefold/demo`, made through this API.
 *
 * @example
 * import { buildApp, migrate, openDatabase } from '@ninefold/server';
 * const database = await openDatabase({ sqlite: 'data/ninefold.sqlite' });
 * await migrate(database, model);
 * const app = buildApp({ model, database });
 */
export { buildApp, type AppOptions, type AppState, type TrustProxy } from './app.js';

export { openDatabase, type Database, type DatabaseTarget } from './db/open.js';
export { snapshotSqlite } from './db/sqlite-snapshot.js';
export { type DialectName } from './db/dialect.js';

export {
  migrate,
  isMigrated,
  planMigration,
  listMigrations,
  DanglingRefsError,
  DataLossError,
  type MigrateOptions,
  type MigrationOutcome,
  type PlannedMigration,
} from './schema/migrate.js';
export {
  compatibilityCheck,
  compatibilityProblems,
  recordedSchema,
  type Compatibility,
  type RecordedSchema,
} from './schema/compatibility.js';
export {
  registerInstance,
  instancesServing,
  INSTANCE_RENEW_MS,
  INSTANCE_STALE_MS,
  INSTANCE_LOCK_SPACE,
  type InstancePresence,
  type PresenceOptions,
} from './schema/instances.js';
export { enqueueJob, type NewJob, type Enqueued, DEFAULT_MAX_ATTEMPTS } from './jobs/enqueue.js';
export { JobRunner, type JobRunnerOptions } from './jobs/runner.js';
export { type Job, type JobHandler, type JobHandlers, type JobState, JOB_STATES } from './jobs/job.js';
export { productJobHandlers, type JobContext } from './jobs/kinds.js';
export { type FileStore, type ByteRange, type StoredKey } from './files/store.js';
export { diskFileStore } from './files/disk-store.js';
export { s3FileStore, type S3StoreOptions } from './files/s3-store.js';
export { openFileStore } from './files/open-store.js';
export { parseStorageUrl, describeS3, StorageUrlError, type S3Location } from './files/storage-url.js';
export { checkFileKey, fileKeys, fileOfKey, FileKeyError } from './files/keys.js';
export { FILE_EXPIRE_JOB, FILE_REMOVE_JOB, type FileJobPayload } from './files/lifecycle.js';
export {
  FILE_SWEEP_JOB,
  ORPHAN_AGE_MS,
  SWEEP_EVERY_MS,
  scheduleFileSweep,
  sweepFiles,
  type SweepOutcome,
} from './files/sweep.js';
export { EFFECTS_JOB, fanOutSequence } from './effects/fan-out.js';
export { scheduleJob, cancelJob, type ScheduledJob } from './jobs/schedule.js';
export { TIMER_JOB, timerKey, type TimerPayload } from './timers/schedule.js';
export {
  resolveWebhooks,
  WebhookConfigError,
  ALLOW_PRIVATE_VARIABLE,
  type ResolvedWebhooks,
  type ResolvedWebhook,
} from './webhooks/resolve.js';
export {
  WEBHOOK_JOB,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_BACKOFF,
  type WebhookPayload,
  type WebhookBody,
} from './webhooks/enqueue.js';
export { addressRange } from './webhooks/address.js';
export { NOTIFY_JOB, type NotifyPayload } from './notifications/enqueue.js';
export { deliverNotification, fieldsForEveryone, type DeliveryOutcome } from './notifications/deliver.js';
export { renderTemplate, type RenderValues } from './notifications/render.js';
export { MAIL_JOB, type MailPayload } from './mail/send.js';
export { mailSettings, type MailSettings, DEFAULT_MAIL_FROM } from './mail/settings.js';
export { composeMail, recordLink, escapeHtml, type MailContent } from './mail/compose.js';
export { retryDelayMs, DEFAULT_BACKOFF, type Backoff } from './jobs/backoff.js';
export { pruneJobs, DEFAULT_RETENTION, type Retention } from './jobs/prune.js';
export { JOBS_CHANNEL } from './jobs/wake.js';
export { EVENTS_CHANNEL, logRecordChange, type LoggedChange } from './events/log.js';
export { MAX_STREAMS_PER_USER } from './events/routes.js';
export { SESSION_CHECK_MS } from './events/streams.js';
export { LISTEN_APPLICATION_NAME } from './db/postgres-listen.js';
export { acquireStartupLease, type Lease, type LeaseOptions } from './schema/startup-lease.js';
export { desiredSchema } from './schema/desired.js';
export { diffSchemas, formatPlan, isLossy, type Plan, type Step } from './schema/plan.js';
export { schemaHash, type Schema, type Table, type Column, type Index } from './schema/schema.js';
export { tableName, TABLES, PASSWORD_HASH_COLUMN } from './schema/names.js';
export { sessionCacheOf } from './auth/session-cache.js';

export {
  addUser,
  listUsers,
  findUser,
  setRoles,
  disableUser,
  resetPassword,
  normalizeEmail,
  type NewUser,
  type UserSummary,
} from './auth/users.js';
export { hashPassword, verifyPassword, MIN_PASSWORD_LENGTH } from './auth/password.js';
export { requireUser, type RequestAuth } from './auth/request-auth.js';
export {
  OIDC_FLOW_COOKIE,
  OIDC_FLOW_SECONDS,
  OIDC_TIMEOUT_SECONDS,
  OidcConfigError,
  decodeFlow,
  encodeFlow,
  type OidcFlow,
} from './auth/oidc.js';
export { inviteByCommand } from './auth/invitations.js';
export { resetSecondFactor } from './auth/mfa/operator-reset.js';
export { LINK_MAIL_JOB } from './auth/identity-mail.js';
export { PER_ADDRESS, PER_EMAIL } from './auth/identity-limiter.js';

export { ApiError, problemOf, PROBLEM_CONTENT_TYPE, type FieldIssue } from './http/errors.js';
export { publicModel, signedOutModel } from './http/public-model.js';
export { apiPath, isApiPath } from './http/paths.js';
export { requestsPerMinute } from './http/rate-limit.js';
export { type CounterStore, type Window, type Taken, secondsLeft } from './limits/counters.js';
export { memoryCounters } from './limits/memory-counters.js';
export { postgresCounters } from './limits/postgres-counters.js';
export {
  openRedisCounters,
  describeRedisUrl,
  RedisUrlError,
  type RedisCounterOptions,
} from './limits/redis-counters.js';
export { countersFor, openCounterStore } from './limits/choose.js';
export { recordHistory, type HistoryEntry } from './audit/history.js';
export { openApiDocument } from './openapi/document.js';
export { registerResources, resourcePath } from './resources/routes.js';
// records that hold files: demo data uploads its sample files as a user would (decision 0054)
export { storeUpload, type UploadedBytes } from './files/holdings.js';
export { sampleFiles, onePagePdf, type SampleFile } from './files/sample-files.js';
