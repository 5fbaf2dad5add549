/**
 * The team's invitations (docs/dashboard.md "Team"): an Owner's form that invites by e-mail with a
 * role, and the pending invitations, each of which an Owner may revoke, asked first.
 */
import { useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { TeamInvitation, UserRole } from '../api-types.ts';
import { formatDateTime } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { Confirm } from './confirm.tsx';
import { Field, focusFirstInvalid, focusSoon, Select } from './field.tsx';
import { refusal, roleLabel, ROLES } from './team-text.ts';

export function InviteForm({ onInvited }: { onInvited: (email: string) => Promise<void> }) {
  const { t } = useI18n();
  const form = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<UserRole>('Viewer');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim()) {
      setError(t('required'));
      return focusFirstInvalid(form.current);
    }
    setBusy(true);
    const res = await api.invite(email.trim(), role);
    setBusy(false);
    if (res.ok) {
      setError(null);
      setEmail('');
      await onInvited(res.data.invitation.email);
      return;
    }
    if (res.kind === 'http' && res.status === 401) return;
    setError(res.kind === 'http' ? res.error.message : t('outcomeUnknown'));
    focusFirstInvalid(form.current);
  };

  return (
    <section class="pd-card" aria-labelledby="invite-title">
      <h2 id="invite-title">{t('inviteTitle')}</h2>
      <p class="pd-muted">{t('inviteIntro')}</p>
      <form ref={form} class="pd-form" onSubmit={submit} noValidate>
        <Field
          id="invite-email"
          type="email"
          label={t('inviteEmail')}
          autocomplete="off"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          error={error ?? undefined}
        />
        <Select
          id="invite-role"
          label={t('role')}
          value={role}
          onChange={(v) => setRole(v as UserRole)}
          options={ROLES.map((r) => ({ value: r, label: roleLabel(t, r) }))}
        />
        <button type="submit" class="pd-button pd-primary" aria-disabled={busy ? 'true' : undefined}>
          {t('sendInvitation')}
        </button>
      </form>
    </section>
  );
}

export function InvitationList({
  invitations,
  owner,
  onDone,
  onStart,
}: {
  invitations: TeamInvitation[];
  owner: boolean;
  onDone: (text: string, ok?: boolean) => Promise<void>;
  onStart: () => void;
}) {
  const { t, lang } = useI18n();
  const [asking, setAsking] = useState<string | null>(null);

  const revoke = async (invitation: TeamInvitation) => {
    const res = await api.revokeInvitation(invitation.id);
    if (!res.ok && res.status === 401) return;
    setAsking(null);
    if (!res.ok) return onDone(refusal(t, res), false);
    await onDone(t('revokedDone', { email: invitation.email }));
  };

  return (
    <section aria-labelledby="team-invitations-title">
      <h2 id="team-invitations-title">{t('pendingInvitations')}</h2>
      {invitations.length === 0 ? (
        <p>{t('noInvitations')}</p>
      ) : (
        <ul class="pd-list" data-testid="team-invitations">
          {invitations.map((invitation) => (
            <li key={invitation.id} class="pd-item" data-testid="team-invitation">
              <div class="pd-item-head">
                <span class="pd-strong">{invitation.email}</span>
                <span class="pd-badge">{roleLabel(t, invitation.role)}</span>
              </div>
              <dl class="pd-inline">
                {invitation.invitedBy ? (
                  <div>
                    <dt>{t('invitedBy')}</dt>
                    <dd>{invitation.invitedBy}</dd>
                  </div>
                ) : null}
                <div>
                  <dt>{t('expires')}</dt>
                  <dd>{formatDateTime(invitation.expiresAt, lang)}</dd>
                </div>
              </dl>
              {owner && asking !== invitation.id ? (
                <button
                  type="button"
                  id={`revoke-${invitation.id}`}
                  class="pd-button"
                  aria-label={t('revokeFor', { email: invitation.email })}
                  onClick={() => {
                    onStart();
                    setAsking(invitation.id);
                    focusSoon(`#confirm-revoke-${invitation.id}`);
                  }}
                >
                  {t('revoke')}
                </button>
              ) : null}
              {asking === invitation.id ? (
                <Confirm
                  question={t('revokeQuestion', { email: invitation.email })}
                  confirmId={`confirm-revoke-${invitation.id}`}
                  confirm={t('confirmRevoke')}
                  onConfirm={() => revoke(invitation)}
                  onDismiss={() => {
                    setAsking(null);
                    focusSoon(`#revoke-${invitation.id}`);
                  }}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
