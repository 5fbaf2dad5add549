/**
 * The dashboard API client (`/dashboard/api/…`, docs/dashboard.md). Failures are values, not
 * exceptions, as in the hosted page's client (../pay/api.ts): `network` (no answer, or a 5xx: the
 * outcome may be unknown) or `http` with the catalogue error. Every change is a POST with JSON and
 * `X-Payframe-Client: dashboard`, the server's CSRF check. A 401 on any call but the sign-in's and
 * the first session look means the session ended (idle, expired, signed out elsewhere): the app
 * hears it through `onSessionEnded` and returns to the sign-in page.
 */
import type {
  AuditFilters,
  AuditPage,
  DevelopersInfo,
  KeyOverlap,
  KeyRoll,
  KeyStatus,
  LinkPage,
  MerchantSettings,
  NewLink,
  Overview,
  PaymentDetail,
  PaymentFilters,
  PaymentLink,
  PaymentPage,
  SessionInfo,
  SettingsChange,
  SettleResult,
  Settlement,
  Team,
  TeamInvitation,
  TeamUser,
  InvitationInfo,
  UserRole,
  TransactionResult,
  WebhookDeliveryDetail,
  WebhookDeliveryPage,
  WebhookSettings,
} from './api-types.ts';

export const BASE = '/dashboard/api';

export interface ApiError {
  code: string;
  message: string;
  fields?: { field: string; code: string; message: string }[];
}
export type Result<T> =
  | { ok: true; data: T }
  | { ok: false; kind: 'network'; status: number }
  | { ok: false; kind: 'http'; status: number; error: ApiError };

let sessionEnded: () => void = () => {};
/** What the app does when a call finds the session gone (one listener: the app's). */
export function onSessionEnded(listener: () => void): void {
  sessionEnded = listener;
}

interface Options {
  /** A 401 is this call's own answer (sign-in failed, not signed in yet), not a session that ended. */
  own401?: boolean;
}

async function call<T>(path: string, init: RequestInit = {}, options: Options = {}): Promise<Result<T>> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    const res = await fetch(`${BASE}${path}`, {
      ...init,
      signal: controller.signal,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...init.headers },
    });
    if (res.status === 401 && !options.own401) sessionEnded();
    const json: unknown = res.status === 204 ? {} : await res.json().catch(() => null);
    if (res.ok && json !== null) return { ok: true, data: json as T };
    const error = (json as { error?: ApiError } | null)?.error;
    if (res.status >= 500 || !error) return { ok: false, kind: 'network', status: res.status };
    return { ok: false, kind: 'http', status: res.status, error };
  } catch {
    return { ok: false, kind: 'network', status: 0 };
  } finally {
    clearTimeout(timer);
  }
}

const get = <T>(path: string, options?: Options) => call<T>(path, {}, options);

/** A replacement of a whole resource (the settings): JSON, with the CSRF header like a POST. */
function put<T>(path: string, body: unknown): Promise<Result<T>> {
  return call<T>(path, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-payframe-client': 'dashboard' },
    body: JSON.stringify(body),
  });
}

function post<T>(path: string, body: unknown = {}, options?: Options): Promise<Result<T>> {
  return call<T>(
    path,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-payframe-client': 'dashboard' },
      body: JSON.stringify(body),
    },
    options,
  );
}

/** The filters as the list, the CSV export and the page's address carry them (empty ones left out). */
export function filterQuery(filters: PaymentFilters | AuditFilters, after?: string): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) q.set(name, value);
  if (after) q.set('after', after);
  const text = q.toString();
  return text ? `?${text}` : '';
}

export const exportUrl = (filters: PaymentFilters) => `${BASE}/payments/export.csv${filterQuery(filters)}`;
export const auditExportUrl = (filters: AuditFilters) =>
  `${BASE}/audit-log/export.csv${filterQuery(filters)}`;

const id = encodeURIComponent;

export const api = {
  signIn: (username: string, password: string) =>
    post<{ secondFactor: 'EnrolmentRequired' | 'Required' }>(
      '/sign-in',
      { username, password },
      { own401: true },
    ),
  forgotPassword: (username: string, email: string) =>
    post<{ message: string }>('/forgot-password', { username, email }, { own401: true }),
  session: () => get<SessionInfo>('/session', { own401: true }),
  /** The session, where a 401 means it ended (before a download the browser makes itself). */
  stillSignedIn: () => get<SessionInfo>('/session'),
  beginEnrolment: () =>
    post<{ setupKey: string; otpauthUri: string; qrSvg: string }>('/second-factor/enrolment'),
  verify: (code: string) => post<{ recoveryCodes?: string[] }>('/second-factor/verify', { code }),
  signOut: () => post<Record<string, never>>('/sign-out', {}, { own401: true }),
  overview: (currency?: string) =>
    get<Overview>(currency ? `/overview?currency=${encodeURIComponent(currency)}` : '/overview'),
  payments: (filters: PaymentFilters, after?: string) =>
    get<PaymentPage>(`/payments${filterQuery(filters, after)}`),
  payment: (transactionId: string) => get<PaymentDetail>(`/payments/${id(transactionId)}`),
  refund: (transactionId: string, amount: string) =>
    post<TransactionResult>(`/payments/${id(transactionId)}/refund`, { amount }),
  void: (transactionId: string) => post<TransactionResult>(`/payments/${id(transactionId)}/void`),
  capture: (transactionId: string, amount: string) =>
    post<TransactionResult>(`/payments/${id(transactionId)}/capture`, { amount }),
  auditLog: (filters: AuditFilters, after?: string) =>
    get<AuditPage>(`/audit-log${filterQuery(filters, after)}`),
  links: (after?: string) => get<LinkPage>(`/payment-links${after ? `?after=${id(after)}` : ''}`),
  createLink: (link: NewLink) => post<{ link: PaymentLink; qrSvg: string }>('/payment-links', link),
  cancelLink: (token: string) => post<{ link: PaymentLink }>(`/payment-links/${id(token)}/cancel`),
  settlement: () => get<Settlement>('/settlement'),
  developers: () => get<DevelopersInfo>('/developers'),
  keyStatus: () => get<KeyStatus>('/developers/key'),
  rollKey: (overlap: KeyOverlap) => post<KeyRoll>('/developers/key/roll', { overlap }),
  webhooks: () => get<{ settings: WebhookSettings } & WebhookDeliveryPage>('/webhooks'),
  webhookDeliveries: (after: string) => get<WebhookDeliveryPage>(`/webhooks/deliveries?after=${id(after)}`),
  webhookDelivery: (eventId: string) =>
    get<{ delivery: WebhookDeliveryDetail }>(`/webhooks/deliveries/${id(eventId)}`),
  setWebhookEndpoint: (url: string) => post<{ settings: WebhookSettings }>('/webhooks/endpoint', { url }),
  rollWebhookSecret: () =>
    post<{ secret: string; previousSecretValidUntil: string | null }>('/webhooks/secret/roll'),
  resendWebhook: (eventId: string) =>
    post<{ delivery: WebhookDeliveryDetail }>(`/webhooks/deliveries/${id(eventId)}/resend`),
  sendTestWebhook: () => post<{ delivery: WebhookDeliveryDetail }>('/webhooks/test'),
  settle: () => post<SettleResult>('/settlement/settle'),
  team: () => get<Team>('/team'),
  invite: (email: string, role: UserRole) =>
    post<{ invitation: TeamInvitation }>('/team/invitations', { email, role }),
  revokeInvitation: (invitationId: string) =>
    post<Record<string, never>>(`/team/invitations/${id(invitationId)}/revoke`),
  changeRole: (userId: string, role: UserRole) =>
    post<{ user: TeamUser }>(`/team/users/${id(userId)}/role`, { role }),
  teamChange: (userId: string, change: 'disable' | 'enable' | 'reset-second-factor') =>
    post<{ user: TeamUser }>(`/team/users/${id(userId)}/${change}`),
  invitation: (token: string) => post<InvitationInfo>('/invitation', { token }, { own401: true }),
  acceptInvitation: (token: string, username: string, password: string) =>
    post<{ message: string }>('/invitation/accept', { token, username, password }, { own401: true }),
  settings: () => get<{ settings: MerchantSettings }>('/settings'),
  saveSettings: (settings: SettingsChange) => put<{ settings: MerchantSettings }>('/settings', settings),
};
