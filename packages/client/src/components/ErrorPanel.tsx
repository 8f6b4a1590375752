import { describeError, isRetryable } from '../runtime/messages';
import { useModel } from '../runtime/runtime';
import { TextButton } from './buttons';
import { useT } from '../i18n/I18nProvider';

/**
 * A failure as its catalogue message, with a retry when trying again may help. Drawn as Mantine's
 * light red `Alert` draws itself (`shell.css`), without its code and styles: the first page shows
 * this panel when the session or a screen's code cannot be had, and loads neither otherwise
 * (decision 0069).
 */
export function ErrorPanel({
  error,
  onRetry,
  title,
  alwaysRetry = false,
}: {
  error: unknown;
  onRetry?: () => void;
  title?: string;
  /** Offer the retry whatever the error (a render failure may pass on a second try). */
  alwaysRetry?: boolean;
}) {
  const model = useModel();
  const t = useT();
  const { code, message } = describeError(model, error);
  return (
    <div className="nf-error-panel" role="alert" data-error-code={code}>
      <div className="nf-error-panel-title">{title ?? t('first.errorTitle')}</div>
      <p className="nf-error-panel-message">{message}</p>
      {onRetry !== undefined && (alwaysRetry || isRetryable(error)) && (
        <div className="nf-error-panel-actions">
          <TextButton size="xs" variant="default" onClick={onRetry}>
            {t('first.tryAgain')}
          </TextButton>
        </div>
      )}
    </div>
  );
}
