/**
 * The team (docs/dashboard.md "Team"): the merchant's users with their role, second factor, status
 * and last sign-in, and the pending invitations (./team-invitations.tsx). An Owner invites by e-mail
 * and, per user, changes the role, disables or enables, and resets the second factor, each asked
 * first; an Admin sees the same, read only. The gateway decides every change (the role, the last
 * owner), whatever is shown.
 */
import { useContext, useState } from 'preact/hooks';
import { api } from '../api.ts';
import type { SessionInfo, Team as TeamData, TeamUser, UserRole } from '../api-types.ts';
import { formatDateTime } from '../format.ts';
import { useI18n } from '../i18n/context.ts';
import { mayChangeTeam, mayReadTeam, RoleContext } from '../role.ts';
import { useLoad } from '../use-load.ts';
import { focusSoon, Select } from './field.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';
import { Confirm, ConfirmButtons } from './confirm.tsx';
import { InvitationList, InviteForm } from './team-invitations.tsx';
import { refusal, roleLabel, ROLES } from './team-text.ts';

export function Team() {
  const { t } = useI18n();
  const role = useContext(RoleContext);
  const [loaded, reload] = useLoad(async () => {
    const [team, session] = await Promise.all([api.team(), api.session()]);
    if (!team.ok) return team;
    return { ok: true as const, data: { team: team.data, me: session.ok ? session.data : null } };
  }, []);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const owner = mayChangeTeam(role);

  const done = async (text: string, ok = true) => {
    setResult({ ok, text });
    await reload();
    focusSoon('#team-result');
  };

  return (
    <Page title={t('team')} testId="team">
      <p>{t('teamIntro')}</p>
      {!mayReadTeam(role) ? (
        <p class="pd-alert" role="alert">
          {t('teamNotAllowed')}
        </p>
      ) : (
        <>
          {owner ? null : <p class="pd-notice">{t('teamReadOnly')}</p>}
          <p
            id="team-result"
            tabIndex={-1}
            role="status"
            class={result ? (result.ok ? 'pd-notice' : 'pd-alert') : 'pd-empty'}
            data-testid="team-result"
          >
            {result?.text}
          </p>
          {owner ? <InviteForm onInvited={(email) => done(t('invitationSent', { email }))} /> : null}
          {loaded.state === 'loading' ? <Loading /> : null}
          {loaded.state === 'failed' ? <LoadFailed retry={() => void reload()} /> : null}
          {loaded.state === 'ok' ? (
            <>
              <UserList
                team={loaded.data.team}
                me={loaded.data.me}
                owner={owner}
                onDone={done}
                onStart={() => setResult(null)}
              />
              <InvitationList
                invitations={loaded.data.team.invitations}
                owner={owner}
                onDone={done}
                onStart={() => setResult(null)}
              />
            </>
          ) : null}
        </>
      )}
    </Page>
  );
}

type Asking = { id: string; what: 'role' | 'disable' | 'enable' | 'reset' } | null;

function UserList({
  team,
  me,
  owner,
  onDone,
  onStart,
}: {
  team: TeamData;
  me: SessionInfo | null;
  owner: boolean;
  onDone: (text: string, ok?: boolean) => Promise<void>;
  onStart: () => void;
}) {
  const { t, lang } = useI18n();
  const [asking, setAsking] = useState<Asking>(null);
  const [newRole, setNewRole] = useState<UserRole>('Viewer');

  const ask = (user: TeamUser, what: NonNullable<Asking>['what']) => {
    onStart();
    setAsking({ id: user.id, what });
    if (what === 'role') {
      setNewRole(user.role);
      focusSoon(`#role-${user.id}`);
    } else focusSoon(`#confirm-${what}-${user.id}`);
  };
  const dismiss = (user: TeamUser, what: string) => {
    setAsking(null);
    focusSoon(`#${what}-button-${user.id}`);
  };

  const act = async (user: TeamUser, what: NonNullable<Asking>['what']) => {
    const res =
      what === 'role'
        ? await api.changeRole(user.id, newRole)
        : await api.teamChange(user.id, what === 'reset' ? 'reset-second-factor' : what);
    if (!res.ok && res.status === 401) return;
    setAsking(null);
    if (!res.ok) return onDone(refusal(t, res), false);
    // A change of oneself (one's own role above all) changes what the app may show: it starts again.
    if (me?.user.name.toLowerCase() === user.name.toLowerCase()) return location.reload();
    const name = user.name;
    const text =
      what === 'role'
        ? t('roleChanged', { user: name, role: roleLabel(t, res.data.user.role) })
        : what === 'disable'
          ? t('disabledDone', { user: name })
          : what === 'enable'
            ? t('enabledDone', { user: name })
            : t('resetDone', { user: name });
    await onDone(text);
  };

  return (
    <section aria-labelledby="team-users-title">
      <h2 id="team-users-title">{t('teamUsers')}</h2>
      <ul class="pd-list" data-testid="team-users">
        {team.users.map((user) => {
          const self = me?.user.name.toLowerCase() === user.name.toLowerCase();
          const open = asking?.id === user.id ? asking.what : null;
          return (
            <li key={user.id} class="pd-item" data-testid="team-user">
              <div class="pd-item-head">
                <span class="pd-strong">
                  <span data-testid="team-user-name">{user.name}</span>
                  {self ? <span class="pd-muted"> {t('you')}</span> : null}
                </span>
                <span class="pd-badge" data-testid="team-user-role">
                  {roleLabel(t, user.role)}
                </span>
              </div>
              <dl class="pd-inline">
                {user.email ? (
                  <div>
                    <dt>{t('email')}</dt>
                    <dd>{user.email}</dd>
                  </div>
                ) : null}
                <div>
                  <dt>{t('secondFactorLabel')}</dt>
                  <dd data-testid="team-user-2fa">{user.secondFactor ? t('enrolled') : t('notEnrolled')}</dd>
                </div>
                <div>
                  <dt>{t('status')}</dt>
                  <dd data-testid="team-user-status">
                    {user.disabled
                      ? t('statusDisabled')
                      : user.locked
                        ? t('statusLocked')
                        : t('statusActive')}
                  </dd>
                </div>
                <div>
                  <dt>{t('lastSignIn')}</dt>
                  <dd>{user.lastSignInAt ? formatDateTime(user.lastSignInAt, lang) : t('never')}</dd>
                </div>
              </dl>
              {owner && !open ? (
                <div class="pd-actions">
                  <button
                    type="button"
                    id={`role-button-${user.id}`}
                    class="pd-button"
                    aria-label={t('changeRoleFor', { user: user.name })}
                    onClick={() => ask(user, 'role')}
                  >
                    {t('changeRole')}
                  </button>
                  {self ? null : user.disabled ? (
                    <button
                      type="button"
                      id={`enable-button-${user.id}`}
                      class="pd-button"
                      aria-label={t('enableFor', { user: user.name })}
                      onClick={() => ask(user, 'enable')}
                    >
                      {t('enable')}
                    </button>
                  ) : (
                    <button
                      type="button"
                      id={`disable-button-${user.id}`}
                      class="pd-button"
                      aria-label={t('disableFor', { user: user.name })}
                      onClick={() => ask(user, 'disable')}
                    >
                      {t('disable')}
                    </button>
                  )}
                  {self || !user.secondFactor ? null : (
                    <button
                      type="button"
                      id={`reset-button-${user.id}`}
                      class="pd-button"
                      aria-label={t('resetSecondFactorFor', { user: user.name })}
                      onClick={() => ask(user, 'reset')}
                    >
                      {t('resetSecondFactor')}
                    </button>
                  )}
                </div>
              ) : null}
              {open === 'role' ? (
                <div class="pd-confirm" role="group" aria-labelledby={`role-${user.id}-question`}>
                  <p id={`role-${user.id}-question`}>{t('changeRoleFor', { user: user.name })}</p>
                  <Select
                    id={`role-${user.id}`}
                    label={t('newRoleFor', { user: user.name })}
                    value={newRole}
                    onChange={(v) => setNewRole(v as UserRole)}
                    options={ROLES.map((r) => ({ value: r, label: roleLabel(t, r) }))}
                  />
                  <ConfirmButtons
                    confirm={t('confirmRole')}
                    onConfirm={() => act(user, 'role')}
                    onDismiss={() => dismiss(user, 'role')}
                  />
                </div>
              ) : null}
              {open === 'disable' || open === 'enable' || open === 'reset' ? (
                <Confirm
                  question={t(
                    open === 'disable'
                      ? 'disableQuestion'
                      : open === 'enable'
                        ? 'enableQuestion'
                        : 'resetQuestion',
                    { user: user.name },
                  )}
                  confirmId={`confirm-${open}-${user.id}`}
                  confirm={t(
                    open === 'disable'
                      ? 'confirmDisable'
                      : open === 'enable'
                        ? 'confirmEnable'
                        : 'confirmReset',
                  )}
                  onConfirm={() => act(user, open)}
                  onDismiss={() => dismiss(user, open)}
                />
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
