/**
 * The form of one record, new or existing. The engine checks the values as they are typed (a field
 * once the user has left it, every field once they tried to save), with the very rules the server
 * applies; what the server still refuses lands beside its field, or above the form.
 */
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import {
  type ApiRecord,
  type Entity,
  type Field,
  INVITATION_KEY,
  type InvitationAnswer,
  type Screen,
  type Value,
} from '@ninefold/model';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type Control, Controller, type FieldValues, useForm, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ApiError, WriteQueued } from '../../api/http';
import { useCreateRecord, useUpdateRecord } from '../../api/records';
import { recordTitle } from '../../api/ref-labels';
import { useToasts } from '../../feedback/toasts';
import { FieldInput } from '../../fields/FieldInput';
import { useT } from '../../i18n/I18nProvider';
import { InvitationDialog, isInvitationAnswer } from '../../identity/InvitationDialog';
import { type QueueKey, type QueuedWrite, removeWrite } from '../../offline/queue';
import { type Authorizer } from '../../runtime/access';
import { describeError } from '../../runtime/messages';
import { detailPath, listPath } from '../../runtime/paths';
import { useRuntime } from '../../runtime/runtime';
import { lowerLabel } from '../detail/related';
import { ChangedElsewhereNotice, useChangedElsewhere } from './ChangedElsewhere';
import { LeaveGuard } from './LeaveGuard';
import {
  type FormField,
  type FormValues,
  changedValues,
  checkForm,
  createdValues,
  placeErrors,
  recordValues,
  serverProblems,
} from './form-model';

export interface RecordFormProps {
  readonly screen: Screen;
  readonly entity: Entity;
  readonly access: Authorizer;
  readonly fields: readonly FormField[];
  readonly initial: FormValues;
  /** The record being edited; null for a new one. */
  readonly record: ApiRecord | null;
  /** Fetches the record as the server has it now (after a conflict). */
  readonly reload?: () => Promise<ApiRecord | undefined>;
  /**
   * A write of the offline queue the server refused, opened to be fixed: its values are the form's
   * first ones, its refusal is shown, and it leaves the queue once the form is saved.
   */
  readonly draft?: { readonly queue: QueueKey; readonly write: QueuedWrite };
  /** Where a saved form goes instead of the record's detail screen (the account page stays). */
  readonly onSaved?: (record: ApiRecord) => void;
  /** Where a saved or cancelled form goes instead: the parent's page it was opened from. */
  readonly returnTo?: string;
}

export function RecordForm(props: RecordFormProps) {
  const { screen, entity, access, fields } = props;
  const { model, now } = useRuntime();
  const navigate = useNavigate();
  const create = useCreateRecord(entity);
  const update = useUpdateRecord(entity);
  const toasts = useToasts();
  const t = useT();
  const operation = props.record === null ? 'create' : 'update';

  const [base, setBase] = useState<ApiRecord | null>(props.record);
  const [initial] = useState(props.initial);
  // the wire values are recursive (lists, JSON): react-hook-form sees them as opaque
  const form = useForm<FieldValues>({ defaultValues: props.initial });
  const { control, formState } = form;
  const values = useWatch({ control }) as FormValues;
  const shown = useMemo(() => new Set(fields.map(({ field }) => field.name)), [fields]);
  // a refused write opened to be fixed says why it was refused, as if it had just been sent
  const [refused] = useState(() => {
    const problem = props.draft?.write.problem;
    if (problem === undefined) return null;
    const error = new ApiError(problem);
    const placed = placeErrors(model, serverProblems(error.fieldErrors), shown);
    const described = describeError(model, error);
    return {
      fields: placed.fields,
      problem: { ...described, lines: placed.form.filter((l) => l !== described.message) },
    };
  });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>(refused?.fields ?? {});
  const [problem, setProblem] = useState<{ code: string; message: string; lines: string[] } | null>(
    refused?.problem ?? null,
  );
  const [queued, setQueued] = useState<string | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  // a new user's invitation (`_invitation`), shown once before going on to `next`
  const [invited, setInvited] = useState<{ answer: InvitationAnswer; next: string | null } | null>(null);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [reloading, setReloading] = useState(false);
  const leaving = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);

  const check = checkForm(
    model,
    entity,
    { ...initial, ...values },
    {
      operation,
      user: access.user,
      now: now(),
      old: base,
      shown,
      readable: access.readable(entity.name, base),
    },
  );
  const saving = create.isPending || update.isPending;
  const submitted = formState.isSubmitted;

  const errorOf = (name: string): string | undefined =>
    serverErrors[name] ??
    (submitted || formState.touchedFields[name] === true ? (drafts[name] ?? check.fields[name]) : undefined);

  const leave = (path: string | null) => {
    leaving.current = true;
    if (path === null) void navigate(-1);
    else void navigate(path);
  };

  // a refused form takes the user to its summary, whose links lead on to each field (decision 0066):
  // the summary focuses itself once it is drawn (a timer could fire before React has drawn it)
  const [focusRequest, setFocusRequest] = useState(0);
  const focusFirstError = () => setFocusRequest((n) => n + 1);

  const submit = form.handleSubmit(async () => {
    setServerErrors({});
    setProblem(null);
    setConflict(null);
    setQueued(null);
    const current = { ...initial, ...form.getValues() } as FormValues;
    if (!check.ok || Object.keys(drafts).length > 0) {
      focusFirstError();
      return;
    }
    const changes = base === null ? {} : changedValues(current, base, fields);
    try {
      let saved: ApiRecord;
      if (base === null) {
        saved = await create.mutateAsync(createdValues(current, fields));
      } else {
        saved =
          Object.keys(changes).length === 0
            ? base
            : await update.mutateAsync({ id: base.id, version: base.version, changes });
      }
      if (props.draft !== undefined) removeWrite(props.draft.queue, props.draft.write.key);
      const savedPath = detailPath(model, entity.name, saved.id);
      toasts.show({
        message:
          base === null
            ? t('form.created', { entity: entity.label, title: recordTitle(entity, saved) })
            : t('form.saved', { title: recordTitle(entity, saved) }),
        link: savedPath === null ? undefined : { to: savedPath, label: recordTitle(entity, saved) },
      });
      if (props.onSaved !== undefined) {
        form.reset(recordValues(saved, fields));
        setBase(saved);
        props.onSaved(saved);
        return;
      }
      const next = props.returnTo ?? detailPath(model, entity.name, saved.id) ?? listPath(model, entity.name);
      const invitation: unknown =
        base === null ? (saved as Record<string, unknown>)[INVITATION_KEY] : undefined;
      if (isInvitationAnswer(invitation)) {
        leaving.current = true; // saved: nothing to lose while the dialog shows
        setInvited({ answer: invitation, next });
        return;
      }
      leave(next);
    } catch (error) {
      if (error instanceof WriteQueued) {
        if (props.draft !== undefined) removeWrite(props.draft.queue, props.draft.write.key);
        // nothing left to lose; the form's record now carries the change, so that a further edit
        // sends only what is new, after it
        form.reset(current);
        if (base !== null) setBase({ ...base, ...changes });
        setQueued(describeError(model, error).message);
        return;
      }
      if (error instanceof ApiError && error.code === 'E_CONFLICT') {
        setConflict(describeError(model, error).message);
        return;
      }
      const placed =
        error instanceof ApiError
          ? placeErrors(model, serverProblems(error.fieldErrors), shown)
          : { fields: {}, form: [] };
      setServerErrors(placed.fields);
      const described = describeError(model, error);
      // a refusal that is only about fields says so beside them; anything else says it above
      if (placed.form.length > 0 || Object.keys(placed.fields).length === 0) {
        setProblem({ ...described, lines: placed.form.filter((line) => line !== described.message) });
      }
      focusFirstError();
    }
  });

  const follow = (fresh: ApiRecord) => {
    setBase(fresh);
    form.reset(recordValues(fresh, fields));
    setServerErrors({});
    setDrafts({});
    setProblem(null);
    setConflict(null);
  };
  const reload = async () => {
    if (props.reload === undefined) return;
    setReloading(true);
    try {
      const fresh = await props.reload();
      if (fresh !== undefined) {
        follow(fresh);
        changed.dismiss();
      }
    } finally {
      setReloading(false);
    }
  };
  // someone else's change, refreshed by the live stream: followed, or announced over unsaved edits
  const changed = useChangedElsewhere({
    record: props.record,
    base,
    dirty: formState.isDirty,
    busy: saving || leaving.current,
    follow,
  });

  // stable across renders, so that a keystroke re-renders only the field it changed (FieldRow is memo)
  const onEdited = useCallback((name: string) => {
    setServerErrors((errors) => {
      if (errors[name] === undefined) return errors;
      const { [name]: _fixed, ...rest } = errors;
      return rest;
    });
  }, []);
  const onInvalid = useCallback((name: string, said: string | null) => {
    setDrafts((drafts) => {
      if (said === null && drafts[name] === undefined) return drafts;
      if (said !== null && drafts[name] === said) return drafts;
      const { [name]: _old, ...rest } = drafts;
      return said === null ? rest : { ...rest, [name]: said };
    });
  }, []);

  const formErrors = submitted ? check.form : [];
  // each field that says something is wrong, in the form's order: the summary's links
  const summaryFields = (submitted || Object.keys(serverErrors).length > 0 ? fields : [])
    .map(({ field }) => ({ name: field.name, label: field.label, message: errorOf(field.name) }))
    .filter((f): f is { name: string; label: string; message: string } => f.message !== undefined);
  return (
    <form ref={formRef} noValidate onSubmit={(event) => void submit(event)} aria-label={screen.title}>
      <LeaveGuard dirty={formState.isDirty && !saving && invited === null} leaving={leaving} />
      {invited !== null && <InvitationDialog answer={invited.answer} onClose={() => leave(invited.next)} />}
      {/* outside the stack: its region, empty until needed, takes no gap there */}
      {base !== null && (
        <ChangedElsewhereNotice
          entity={entity}
          shown={changed.newer !== null && conflict === null}
          reloading={reloading}
          onReload={() => void reload()}
          onKeep={changed.dismiss}
        />
      )}
      <Stack gap="md" maw={720}>
        {queued !== null && (
          <Alert
            color="blue"
            title={t('form.savedOnDevice')}
            role="status"
            data-error-code="E_OFFLINE_QUEUED"
          >
            <Text size="sm">{queued}</Text>
            <Group mt="sm">
              <Button
                size="xs"
                variant="default"
                onClick={() =>
                  leave(
                    (base === null ? null : detailPath(model, entity.name, base.id)) ??
                      listPath(model, entity.name),
                  )
                }
              >
                {t('form.done')}
              </Button>
            </Group>
          </Alert>
        )}
        {conflict !== null && (
          <Alert color="orange" title={t('form.changedElsewhere')} role="alert" data-error-code="E_CONFLICT">
            <Text size="sm">{conflict}</Text>
            <Group mt="sm">
              <Button
                size="xs"
                variant="default"
                color="orange"
                loading={reloading}
                onClick={() => void reload()}
              >
                {t('form.reload')}
              </Button>
            </Group>
          </Alert>
        )}
        <ErrorSummary
          problem={problem}
          lines={formErrors}
          fields={summaryFields}
          onOpen={(name) => focusField(formRef.current, name)}
          focusRequest={focusRequest}
        />
        {fields.map(({ field, editable }) => (
          <div key={field.name} id={fieldAnchor(field.name)} data-form-field={field.name}>
            <FieldRow
              field={field}
              editable={editable}
              control={control}
              error={errorOf(field.name)}
              onEdited={onEdited}
              onInvalid={onInvalid}
            />
          </div>
        ))}
        <Group justify="flex-end" gap="sm" wrap="wrap">
          <Button
            variant="default"
            onClick={() =>
              // leaving through Cancel still asks when there are changes
              void navigate(
                props.returnTo ??
                  (base === null ? null : detailPath(model, entity.name, base.id)) ??
                  listPath(model, entity.name) ??
                  '/',
              )
            }
          >
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={saving} disabled={saving}>
            {base === null
              ? t('form.create', { entity: lowerLabel(entity.label, model.product.locale) })
              : t('form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The place of a field in the form, which the summary's links point at. */
const fieldAnchor = (name: string) => `nf-field-${name}`;

/** Focuses a field's control: the invalid one of its controls, or its first one. */
function focusField(form: HTMLFormElement | null, name: string): void {
  const place = form?.querySelector<HTMLElement>(`[data-form-field="${CSS.escape(name)}"]`);
  const control =
    place?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
    place?.querySelector<HTMLElement>('input:not([type=hidden]), textarea, select, button');
  control?.scrollIntoView?.({ block: 'center' });
  control?.focus({ preventScroll: true });
}

/**
 * What stops the form, in one place above it: the server's refusal, the rules across fields, and a
 * link to each field that says something is wrong. Focused when the form is refused.
 */
function ErrorSummary({
  problem,
  lines,
  fields,
  onOpen,
  focusRequest,
}: {
  problem: { code: string; message: string; lines: string[] } | null;
  lines: readonly string[];
  fields: readonly { name: string; label: string; message: string }[];
  onOpen(name: string): void;
  /** Counts the form's refusals: each new one focuses the summary, as soon as it is drawn. */
  focusRequest: number;
}) {
  const t = useT();
  const shown = problem !== null || lines.length > 0 || fields.length > 0;
  const ref = useRef<HTMLDivElement>(null);
  const focused = useRef(0);
  useEffect(() => {
    if (focusRequest <= focused.current || ref.current === null) return;
    focused.current = focusRequest;
    ref.current.scrollIntoView?.({ block: 'center' });
    ref.current.focus({ preventScroll: true });
  }, [focusRequest, shown]);
  if (!shown) return null;
  return (
    <Alert
      ref={ref}
      color="red"
      title={problem !== null ? t('form.notSaved') : t('form.pleaseCheck')}
      role="alert"
      tabIndex={-1}
      data-error-summary
      data-error-code={problem?.code}
      style={{ outlineOffset: 2 }}
    >
      <Stack gap={4}>
        {problem !== null && <Text size="sm">{problem.message}</Text>}
        {[...(problem?.lines ?? []), ...lines].map((line) => (
          <Text size="sm" key={line}>
            {line}
          </Text>
        ))}
        {fields.length > 0 && (
          <ul aria-label={t('form.fieldsToCheck')} style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
            {fields.map((f) => (
              <li key={f.name}>
                <Anchor
                  href={`#${fieldAnchor(f.name)}`}
                  size="sm"
                  c="inherit"
                  underline="always"
                  onClick={(event) => {
                    event.preventDefault(); // the app's router owns the address
                    onOpen(f.name);
                  }}
                >
                  {t('form.fieldProblem', { field: f.label, problem: f.message })}
                </Anchor>
              </li>
            ))}
          </ul>
        )}
      </Stack>
    </Alert>
  );
}

interface FieldRowProps {
  readonly field: Field;
  readonly editable: boolean;
  readonly control: Control<FieldValues>;
  readonly error: string | undefined;
  readonly onEdited: (name: string) => void;
  readonly onInvalid: (name: string, said: string | null) => void;
}

/** One field of the form; re-renders only when its own value, error or lock changes. */
const FieldRow = memo(function FieldRow({
  field,
  editable,
  control,
  error,
  onEdited,
  onInvalid,
}: FieldRowProps) {
  return (
    <Controller
      name={field.name}
      control={control}
      render={({ field: input }) => (
        <FieldInput
          field={field}
          value={input.value as Value | undefined}
          onChange={(value) => {
            input.onChange(value);
            onEdited(field.name);
          }}
          onBlur={input.onBlur}
          onInvalid={(said) => onInvalid(field.name, said)}
          error={error}
          disabled={!editable}
        />
      )}
    />
  );
});
