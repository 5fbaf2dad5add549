/**
 * Settings (issue 16; docs/dashboard.md "Settings"): the merchant's business details, branding,
 * checkout options and registered origins (./settings-origins.tsx), with a live preview of the
 * hosted page beside the form (below it on narrow screens; ./settings-preview.tsx). Save sends the
 * whole settings; the gateway checks them (a refused value names its field, nothing is saved) and
 * refuses a Viewer's or Staff's change (403): the page offers them the settings read-only.
 */
import { useContext, useMemo, useRef, useState } from 'preact/hooks';
import type { PreviewDraft } from '../../pay/preview.ts';
import { api } from '../api.ts';
import type { MerchantSettings, SettingsChange } from '../api-types.ts';
import { useI18n } from '../i18n/context.ts';
import { mayChangeSettings, RoleContext } from '../role.ts';
import { useLoad } from '../use-load.ts';
import { Field, focusFirstInvalid, Select } from './field.tsx';
import { LoadFailed, Loading, Page } from './page.tsx';
import { SettingsOrigins } from './settings-origins.tsx';
import { SettingsPreview } from './settings-preview.tsx';

/** The form's values: texts as typed (the colour and radius too), the rest as they are. */
interface Draft {
  displayName: string;
  website: string;
  supportEmail: string;
  logoUrl: string;
  brandColor: string;
  cornerRadius: string;
  nameOnCardRequired: boolean;
  returnMode: 'immediate' | 'confirmation';
  threeDSecure: boolean;
  card: boolean;
  ach: boolean;
  origins: string[];
  termsUrl: string;
  privacyUrl: string;
  postalCodeRequired: boolean;
  receiptEmail: boolean;
}

type ErrorField =
  | 'displayName'
  | 'website'
  | 'supportEmail'
  | 'logoUrl'
  | 'termsUrl'
  | 'privacyUrl'
  | 'brandColor'
  | 'cornerRadius'
  | 'methods'
  | 'origins';
type Errors = Partial<Record<ErrorField, string>>;

const COLOR = /^#[0-9a-fA-F]{6}$/;
const RADIUS = /^(?:[0-9]|1[0-9]|2[0-4])$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A link in the payment page's footer: https only (the gateway checks the rest). */
const HTTPS = /^https:\/\/\S+$/i;
/** The hosted page's default brand colour (widget/app/pay/style.css --pf-primary), for the picker. */
const DEFAULT_COLOR = '#2446c8';

function draftOf(s: MerchantSettings): Draft {
  return {
    displayName: s.displayName,
    website: s.website ?? '',
    supportEmail: s.supportEmail ?? '',
    logoUrl: s.logoUrl ?? '',
    brandColor: s.brandColor ?? '',
    cornerRadius: s.cornerRadius === null ? '' : String(s.cornerRadius),
    nameOnCardRequired: s.nameOnCardRequired,
    returnMode: s.returnMode,
    threeDSecure: s.threeDSecure,
    card: s.methods.includes('card'),
    ach: s.methods.includes('ach'),
    origins: s.origins,
    termsUrl: s.termsUrl ?? '',
    privacyUrl: s.privacyUrl ?? '',
    postalCodeRequired: s.postalCodeRequired,
    receiptEmail: s.receiptEmail,
  };
}

function changeOf(d: Draft): SettingsChange {
  const text = (v: string) => v.trim() || null;
  return {
    displayName: d.displayName.trim(),
    website: text(d.website),
    supportEmail: text(d.supportEmail),
    logoUrl: text(d.logoUrl),
    brandColor: text(d.brandColor),
    cornerRadius: d.cornerRadius.trim() === '' ? null : Number(d.cornerRadius.trim()),
    nameOnCardRequired: d.nameOnCardRequired,
    returnMode: d.returnMode,
    threeDSecure: d.threeDSecure,
    methods: [...(d.card ? (['card'] as const) : []), ...(d.ach ? (['ach'] as const) : [])],
    origins: d.origins,
    termsUrl: text(d.termsUrl),
    privacyUrl: text(d.privacyUrl),
    postalCodeRequired: d.postalCodeRequired,
    receiptEmail: d.receiptEmail,
  };
}

/** What the preview shows of the draft: a value not (yet) valid is previewed as the default. */
function previewOf(d: Draft): PreviewDraft {
  const color = d.brandColor.trim();
  const radius = d.cornerRadius.trim();
  return {
    name: d.displayName.trim(),
    logoUrl: d.logoUrl.trim() || null,
    website: d.website.trim() || null,
    brandColor: COLOR.test(color) ? color : null,
    cornerRadius: RADIUS.test(radius) ? Number(radius) : null,
    methods: [...(d.card ? (['card'] as const) : []), ...(d.ach ? (['ach'] as const) : [])],
    nameOnCardRequired: d.nameOnCardRequired,
    termsUrl: HTTPS.test(d.termsUrl.trim()) ? d.termsUrl.trim() : null,
    privacyUrl: HTTPS.test(d.privacyUrl.trim()) ? d.privacyUrl.trim() : null,
    postalCodeRequired: d.postalCodeRequired,
  };
}

export function Settings() {
  const { t } = useI18n();
  const [loaded, reload] = useLoad(() => api.settings(), []);
  return (
    <Page title={t('settings')} testId="settings">
      <p>{t('settingsIntro')}</p>
      {loaded.state === 'loading' ? (
        <Loading />
      ) : loaded.state === 'failed' ? (
        <LoadFailed retry={() => void reload()} />
      ) : (
        <SettingsForm initial={loaded.data.settings} />
      )}
    </Page>
  );
}

function Check({
  id,
  label,
  checked,
  onChange,
  errorId,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** The id of the error this box is marked invalid by, when there is one. */
  errorId?: string | undefined;
}) {
  return (
    <div class="pd-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-invalid={errorId ? 'true' : undefined}
        aria-describedby={errorId}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
    </div>
  );
}

function SettingsForm({ initial }: { initial: MerchantSettings }) {
  const { t } = useI18n();
  const may = mayChangeSettings(useContext(RoleContext));
  const form = useRef<HTMLFormElement>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof Draft>(name: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [name]: value }));
    setSaved(false);
  };
  const text = (name: keyof Draft) => (e: { currentTarget: HTMLInputElement }) =>
    set(name, e.currentTarget.value as never);

  // Memoised so that the preview hears of the draft only when the draft changes.
  const preview = useMemo(() => previewOf(draft), [draft]);

  const check = (): Errors => {
    const found: Errors = {};
    if (!draft.displayName.trim()) found.displayName = t('required');
    if (draft.supportEmail.trim() && !EMAIL.test(draft.supportEmail.trim()))
      found.supportEmail = t('emailInvalid');
    if (draft.brandColor.trim() && !COLOR.test(draft.brandColor.trim()))
      found.brandColor = t('settingsColorInvalid');
    if (draft.cornerRadius.trim() && !RADIUS.test(draft.cornerRadius.trim()))
      found.cornerRadius = t('settingsRadiusInvalid');
    if (!draft.card && !draft.ach) found.methods = t('settingsMethodsRequired');
    for (const name of ['termsUrl', 'privacyUrl'] as const)
      if (draft[name].trim() && !HTTPS.test(draft[name].trim())) found[name] = t('settingsHttpsUrl');
    return found;
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy || !may) return;
    const found = check();
    setErrors(found);
    setFailure(null);
    setSaved(false);
    if (Object.keys(found).length > 0) return focusFirstInvalid(form.current);
    // The form's fields are disabled while it is saved (what is typed meanwhile would be replaced by
    // the saved settings): the focus waits on Save, which stays focusable.
    if (form.current?.contains(document.activeElement) && document.activeElement !== saveButton.current)
      saveButton.current?.focus();
    setBusy(true);
    const res = await api.saveSettings(changeOf(draft));
    setBusy(false);
    if (res.ok) {
      setDraft(draftOf(res.data.settings));
      setSaved(true);
      return;
    }
    if (res.status === 401) return;
    if (res.kind === 'http' && res.error.fields?.length) {
      const fromServer: Errors = {};
      for (const f of res.error.fields) {
        const field = (f.field.split('.')[0] ?? f.field) as ErrorField;
        fromServer[field] = f.message;
      }
      setErrors(fromServer);
      setFailure(t('settingsNotSaved', { message: res.error.message }));
      return focusFirstInvalid(form.current);
    }
    setFailure(
      res.kind === 'http' ? t('settingsNotSaved', { message: res.error.message }) : t('outcomeUnknown'),
    );
  };

  const pickerValue = COLOR.test(draft.brandColor.trim())
    ? draft.brandColor.trim().toLowerCase()
    : DEFAULT_COLOR;

  return (
    <div class="pd-settings">
      <form
        ref={form}
        class="pd-form pd-settings-form"
        onSubmit={submit}
        noValidate
        data-testid="settings-form"
      >
        {may ? null : (
          <p class="pd-notice" data-testid="settings-read-only">
            {t('settingsReadOnly')}
          </p>
        )}
        <div role="alert" class={failure ? 'pd-alert' : 'pd-empty'}>
          {failure}
        </div>
        <fieldset disabled={!may || busy}>
          <legend>{t('settingsBusiness')}</legend>
          <Field
            id="settings-display-name"
            label={t('settingsDisplayName')}
            hint={t('settingsDisplayNameHint')}
            autocomplete="organization"
            value={draft.displayName}
            onInput={text('displayName')}
            error={errors.displayName}
          />
          <Field
            id="settings-website"
            label={t('settingsWebsite')}
            optional
            inputMode="url"
            autocomplete="url"
            value={draft.website}
            onInput={text('website')}
            error={errors.website}
          />
          <Field
            id="settings-support-email"
            type="email"
            label={t('settingsSupportEmail')}
            optional
            autocomplete="email"
            value={draft.supportEmail}
            onInput={text('supportEmail')}
            error={errors.supportEmail}
          />
          <Field
            id="settings-logo-url"
            label={t('settingsLogoUrl')}
            hint={t('settingsLogoHint')}
            optional
            inputMode="url"
            autocomplete="off"
            value={draft.logoUrl}
            onInput={text('logoUrl')}
            error={errors.logoUrl}
          />
          <Field
            id="settings-terms-url"
            label={t('settingsTermsUrl')}
            hint={t('settingsPolicyUrlHint')}
            optional
            inputMode="url"
            autocomplete="off"
            value={draft.termsUrl}
            onInput={text('termsUrl')}
            error={errors.termsUrl}
          />
          <Field
            id="settings-privacy-url"
            label={t('settingsPrivacyUrl')}
            hint={t('settingsPolicyUrlHint')}
            optional
            inputMode="url"
            autocomplete="off"
            value={draft.privacyUrl}
            onInput={text('privacyUrl')}
            error={errors.privacyUrl}
          />
        </fieldset>
        <fieldset disabled={!may || busy}>
          <legend>{t('settingsBranding')}</legend>
          <div class="pd-color">
            <Field
              id="settings-brand-color"
              label={t('settingsBrandColor')}
              hint={t('settingsBrandColorHint')}
              optional
              autocomplete="off"
              spellcheck={false}
              value={draft.brandColor}
              onInput={text('brandColor')}
              error={errors.brandColor}
            />
            <div class="pd-field pd-picker">
              <label for="settings-color-picker" class="pd-visually-hidden">
                {t('settingsPickColor')}
              </label>
              <input
                id="settings-color-picker"
                type="color"
                value={pickerValue}
                onInput={(e) => set('brandColor', e.currentTarget.value)}
              />
            </div>
          </div>
          <Field
            id="settings-corner-radius"
            label={t('settingsCornerRadius')}
            hint={t('settingsCornerRadiusHint')}
            optional
            inputMode="numeric"
            autocomplete="off"
            value={draft.cornerRadius}
            onInput={text('cornerRadius')}
            error={errors.cornerRadius}
          />
        </fieldset>
        <fieldset disabled={!may || busy}>
          <legend>{t('settingsCheckout')}</legend>
          <Check
            id="settings-name-on-card"
            label={t('settingsNameOnCard')}
            checked={draft.nameOnCardRequired}
            onChange={(v) => set('nameOnCardRequired', v)}
          />
          <Check
            id="settings-postal-code"
            label={t('settingsPostalCode')}
            checked={draft.postalCodeRequired}
            onChange={(v) => set('postalCodeRequired', v)}
          />
          <Check
            id="settings-receipt-email"
            label={t('settingsReceiptEmail')}
            checked={draft.receiptEmail}
            onChange={(v) => set('receiptEmail', v)}
          />
          <Check
            id="settings-three-ds"
            label={t('settingsThreeDs')}
            checked={draft.threeDSecure}
            onChange={(v) => set('threeDSecure', v)}
          />
          <Select
            id="settings-return-mode"
            label={t('settingsReturnMode')}
            value={draft.returnMode}
            onChange={(v) => set('returnMode', v === 'confirmation' ? 'confirmation' : 'immediate')}
            options={[
              { value: 'immediate', label: t('settingsReturnImmediate') },
              { value: 'confirmation', label: t('settingsReturnConfirmation') },
            ]}
          />
          <fieldset
            class="pd-methods"
            aria-describedby={errors.methods ? 'settings-methods-error' : undefined}
          >
            <legend>{t('settingsMethods')}</legend>
            <Check
              id="settings-card"
              label={t('methodCard')}
              checked={draft.card}
              onChange={(v) => set('card', v)}
              errorId={errors.methods ? 'settings-methods-error' : undefined}
            />
            <Check
              id="settings-ach"
              label={t('methodAch')}
              checked={draft.ach}
              onChange={(v) => set('ach', v)}
            />
            <p class="pd-error" id="settings-methods-error">
              {errors.methods ?? null}
            </p>
          </fieldset>
        </fieldset>
        <SettingsOrigins
          origins={draft.origins}
          onChange={(origins) => set('origins', origins)}
          error={errors.origins}
          onError={(message) =>
            setErrors(({ origins: _, ...rest }) => (message ? { ...rest, origins: message } : rest))
          }
          may={may}
          disabled={!may || busy}
          form={form}
        />
        {may ? (
          <button
            type="submit"
            ref={saveButton}
            class="pd-button pd-primary"
            aria-disabled={busy ? 'true' : undefined}
          >
            {t('settingsSave')}
          </button>
        ) : null}
        <p role="status" class={saved ? 'pd-notice' : 'pd-empty'} data-testid="settings-saved">
          {saved ? t('settingsSaved') : null}
        </p>
      </form>
      <SettingsPreview draft={preview} />
    </div>
  );
}
