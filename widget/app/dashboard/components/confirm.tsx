/**
 * A question asked before a change, and its answers: the confirming button (it has focus when the
 * question appears) and Not now. While the answer is on its way both are inert, and the question
 * stays until it is in.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/context.ts';

interface ConfirmProps {
  question: string;
  confirmId: string;
  confirm: string;
  onConfirm: () => Promise<void>;
  onDismiss: () => void;
  /** What the question needs chosen first (the key roll's overlap), between it and the buttons. */
  children?: ComponentChildren;
}

/** A question and its two answers; the first answer has focus when it appears. */
export function Confirm({ question, confirmId, confirm, onConfirm, onDismiss, children }: ConfirmProps) {
  return (
    <div class="pd-confirm" role="group" aria-labelledby={`${confirmId}-question`}>
      <p id={`${confirmId}-question`}>{question}</p>
      {children}
      <ConfirmButtons confirmId={confirmId} confirm={confirm} onConfirm={onConfirm} onDismiss={onDismiss} />
    </div>
  );
}

/** The confirming button and Not now, for a question laid out by its page. */
export function ConfirmButtons({
  confirmId,
  confirm,
  onConfirm,
  onDismiss,
}: {
  confirmId?: string;
  confirm: string;
  onConfirm: () => Promise<void>;
  onDismiss: () => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <div class="pd-actions">
      <button
        type="button"
        id={confirmId}
        class="pd-button pd-primary"
        aria-disabled={busy ? 'true' : undefined}
        onClick={async () => {
          if (busy) return;
          setBusy(true);
          await onConfirm();
          setBusy(false);
        }}
      >
        {confirm}
      </button>
      <NotNow busy={busy} onDismiss={onDismiss} />
    </div>
  );
}

/** Leaves a question unanswered; inert while its answer is on its way (the question stays until it is in). */
export function NotNow({ busy, onDismiss }: { busy: boolean; onDismiss: () => void }) {
  const { t } = useI18n();
  return (
    <button
      type="button"
      class="pd-button"
      aria-disabled={busy ? 'true' : undefined}
      onClick={() => {
        if (!busy) onDismiss();
      }}
    >
      {t('notNow')}
    </button>
  );
}
