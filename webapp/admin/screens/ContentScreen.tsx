/**
 * Content: notices (to everyone or one user), carousel, videos, same-city listings and cities
 * (with image and video upload), the app update manifest, app settings and the daily video
 * limit. Lists share one table-and-form editor driven by field descriptions.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, upload } from '../api/client';
import type { Page } from '../api/types';
import { useT, type TextKey } from '../i18n/useT';
import { dateTime } from '../ui/format';
import { Button, Card, ConfirmButton, ConfirmDialog, DataTable, Empty, Field, Pager, Tabs, ui, useFailToast } from '../ui/kit';
import { showToast } from '../ui/toast';
import { BASE_LOCALE, CONTENT_LOCALES, localeText, LocaleTabs, LOCALE_NAMES, textsOf, withLocaleText, type ContentLocale, type Texts } from './localeTexts';
import css from './screens.module.css';
import { UserPicker } from './UserPicker';

type Section = 'notices' | 'banners' | 'videos' | 'cities' | 'listings' | 'app';

export function ContentScreen() {
  const { t } = useT();
  const [section, setSection] = useState<Section>('notices');
  return (
    <Card title={t('nav.content')}>
      <Tabs
        value={section}
        onChange={setSection}
        options={[
          { value: 'notices', label: t('content.notices') },
          { value: 'banners', label: t('content.banners') },
          { value: 'videos', label: t('content.videos') },
          { value: 'cities', label: t('content.cities') },
          { value: 'listings', label: t('content.listings') },
          { value: 'app', label: t('content.app') },
        ]}
      />
      {section === 'notices' && <Notices />}
      {section === 'banners' && <Editor spec={BANNERS} />}
      {section === 'videos' && <Videos />}
      {section === 'cities' && <Editor spec={CITIES} />}
      {section === 'listings' && <Listings />}
      {section === 'app' && <AppSettings />}
    </Card>
  );
}

type FieldType = 'text' | 'textarea' | 'number' | 'flag' | 'image' | 'video' | 'photos' | 'select' | 'user';

interface FieldSpec {
  key: string;
  label: TextKey;
  type: FieldType;
  options?: { value: string; label: TextKey }[];
  /** Shown in the list table. */
  column?: boolean;
  /** Written per language (text and textarea): the base field is zh-CN's, the others go to `texts`. */
  localized?: boolean;
}

type Item = Record<string, unknown> & { id?: string };

interface Spec {
  name: string;
  list: string;
  save: string;
  remove: string;
  /** The list route answers a page (`{list, total}`) rather than an array. */
  paged: boolean;
  fields: FieldSpec[];
  defaults: Item;
  extra?: Record<string, unknown>;
}

const BANNERS: Spec = {
  name: 'banners',
  list: '/admin/banner/list',
  save: '/admin/banner/save',
  remove: '/admin/banner/delete',
  paged: false,
  defaults: { title: '', image: '', link: '', sort: 0, enabled: 1 },
  fields: [
    { key: 'image', label: 'content.image', type: 'image', column: true },
    { key: 'title', label: 'content.title', type: 'text', column: true, localized: true },
    { key: 'link', label: 'content.link', type: 'text', column: true },
    { key: 'sort', label: 'content.sort', type: 'number', column: true },
    { key: 'enabled', label: 'content.enabled', type: 'flag', column: true },
  ],
};

const CITIES: Spec = {
  name: 'cities',
  list: '/admin/city/list',
  save: '/admin/city/save',
  remove: '/admin/city/delete',
  paged: false,
  defaults: { name: '', sort: 0, enabled: 1 },
  fields: [
    { key: 'name', label: 'content.cityName', type: 'text', column: true, localized: true },
    { key: 'sort', label: 'content.sort', type: 'number', column: true },
    { key: 'enabled', label: 'content.enabled', type: 'flag', column: true },
    { key: 'listings', label: 'content.listingCount', type: 'number', column: true },
  ],
};

function videoSpec(kind: string): Spec {
  return {
    name: `videos-${kind}`,
    list: '/admin/video/list',
    save: '/admin/video/save',
    remove: '/admin/video/delete',
    paged: true,
    extra: { kind },
    defaults: { kind, title: '', url: '', cover: '', duration: 0, chatUserId: '0', sort: 0, enabled: 1 },
    fields: [
      { key: 'cover', label: 'content.cover', type: 'image', column: true },
      { key: 'title', label: 'content.title', type: 'text', column: true, localized: true },
      { key: 'url', label: 'content.video', type: 'video' },
      { key: 'duration', label: 'content.duration', type: 'number', column: true },
      { key: 'chatUserId', label: 'content.chatUserId', type: 'user' },
      { key: 'sort', label: 'content.sort', type: 'number', column: true },
      { key: 'enabled', label: 'content.enabled', type: 'flag', column: true },
    ],
  };
}

function listingSpec(cityId: string): Spec {
  return {
    name: `listings-${cityId}`,
    list: '/admin/listing/list',
    save: '/admin/listing/save',
    remove: '/admin/listing/delete',
    paged: true,
    extra: { city: cityId },
    defaults: { cityId, name: '', age: 18, photos: [], intro: '', certified: 0, depositPaid: 0, contact: '', sort: 0, enabled: 1 },
    fields: [
      { key: 'photos', label: 'content.photos', type: 'photos', column: true },
      { key: 'name', label: 'content.name', type: 'text', column: true, localized: true },
      { key: 'age', label: 'content.age', type: 'number', column: true },
      { key: 'intro', label: 'content.intro', type: 'textarea', localized: true },
      { key: 'contact', label: 'content.contact', type: 'text' },
      { key: 'certified', label: 'content.certified', type: 'flag', column: true },
      { key: 'depositPaid', label: 'content.depositPaid', type: 'flag', column: true },
      { key: 'sort', label: 'content.sort', type: 'number' },
      { key: 'enabled', label: 'content.enabled', type: 'flag', column: true },
    ],
  };
}

function Videos() {
  const { t } = useT();
  const [kind, setKind] = useState('find');
  return (
    <>
      <div className={ui.toolbar}>
        <select className={ui.select} value={kind} aria-label={t('content.videoKind')} onChange={(e) => { setKind(e.target.value); }}>
          <option value="find">{t('content.kindFind')}</option>
          <option value="passionate">{t('content.kindPassionate')}</option>
        </select>
      </div>
      <Editor key={kind} spec={videoSpec(kind)} />
    </>
  );
}

function Listings() {
  const { t } = useT();
  const cities = useQuery({ queryKey: ['content', 'cities'], queryFn: () => api<Item[]>('/admin/city/list') });
  const [city, setCity] = useState('');
  const current = city || (cities.data?.[0]?.id ?? '');
  if (cities.data?.length === 0) return <Empty>{t('content.noCities')}</Empty>;
  return (
    <>
      <div className={ui.toolbar}>
        <select className={ui.select} value={current} aria-label={t('content.cityName')} onChange={(e) => { setCity(e.target.value); }}>
          {cities.data?.map((c) => (
            <option key={String(c.id)} value={String(c.id)}>
              {String(c.name)}
            </option>
          ))}
        </select>
      </div>
      {current && <Editor key={current} spec={listingSpec(current)} />}
    </>
  );
}

function text(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
}

function Cell({ field, value }: { field: FieldSpec; value: unknown }) {
  const { t } = useT();
  if (field.type === 'image' && typeof value === 'string' && value) return <img className={css.thumb} src={value} alt="" />;
  if (field.type === 'photos' && Array.isArray(value) && typeof value[0] === 'string') return <img className={css.thumb} src={value[0]} alt="" />;
  if (field.type === 'flag') return <>{value === 1 ? t('common.yes') : t('common.no')}</>;
  return <>{text(value)}</>;
}

function Editor({ spec }: { spec: Spec }) {
  const { t } = useT();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Item | null>(null);
  const key = ['content', spec.name, page];
  const list = useQuery({
    queryKey: key,
    queryFn: async () => {
      if (!spec.paged) {
        const all = await api<Item[]>(spec.list, spec.extra ?? {});
        return { list: all, total: all.length };
      }
      return api<Page<Item>>(spec.list, { ...spec.extra, page, pageSize: 20 });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => api(spec.remove, { id }),
    onSuccess: () => {
      showToast(t('common.done'));
      void qc.invalidateQueries({ queryKey: ['content'] });
    },
  });
  const columns = spec.fields.filter((f) => f.column);
  return (
    <>
      <div className={ui.toolbar}>
        <Button variant="primary" onClick={() => { setEditing({ ...spec.defaults }); }}>
          {t('content.add')}
        </Button>
      </div>
      {list.isError && <p className={ui.error}>{t('common.loadFailed')}</p>}
      {list.data?.list.length === 0 && <Empty>{t('common.empty')}</Empty>}
      {list.data && list.data.list.length > 0 && (
        <table className={ui.table}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.key}>{t(c.label)}</th>
              ))}
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.list.map((item) => (
              <tr key={String(item.id)}>
                {columns.map((c) => (
                  <td key={c.key}>
                    <Cell field={c} value={item[c.key]} />
                  </td>
                ))}
                <td className={css.inline}>
                  <Button small onClick={() => { setEditing(item); }}>
                    {t('content.edit')}
                  </Button>
                  <ConfirmButton
                    small
                    label={t('content.delete')}
                    options={{ title: t('content.delete'), message: t('content.deleteText'), danger: true, onConfirm: () => remove.mutateAsync(String(item.id)) }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {spec.paged && list.data && <Pager page={page} pageSize={20} total={list.data.total} onPage={setPage} />}
      {editing && <ItemForm spec={spec} item={editing} onClose={() => { setEditing(null); }} />}
    </>
  );
}

function UploadInput({ value, accept, onChange }: { value: string; accept: string; onChange: (url: string) => void }) {
  const { t } = useT();
  const fail = useFailToast();
  const [busy, setBusy] = useState(false);
  return (
    <span className={css.inline}>
      <input className={ui.input} value={value} onChange={(e) => { onChange(e.target.value); }} />
      <label className={ui.button}>
        {busy ? t('content.uploading') : t('content.upload')}
        <input
          type="file"
          accept={accept}
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            setBusy(true);
            upload<{ url: string }>('/admin/upload', file)
              .then((r) => { onChange(r.url); })
              .catch(fail)
              .finally(() => { setBusy(false); });
          }}
        />
      </label>
    </span>
  );
}

function ItemForm({ spec, item, onClose }: { spec: Spec; item: Item; onClose: () => void }) {
  const { t } = useT();
  const qc = useQueryClient();
  const [draft, setDraft] = useState<Item>(item);
  const [locale, setLocale] = useState<ContentLocale>(BASE_LOCALE);
  const texts = textsOf(draft.texts);
  const localized = spec.fields.some((f) => f.localized);
  const fail = useFailToast();
  const save = useMutation({
    mutationFn: () => api(spec.save, localized ? { ...draft, texts } : draft),
    onSuccess: () => {
      showToast(t('common.saved'));
      void qc.invalidateQueries({ queryKey: ['content'] });
      onClose();
    },
    onError: fail,
  });
  const set = (k: string, v: unknown) => { setDraft({ ...draft, [k]: v }); };
  // A localized field in the chosen language: zh-CN is the base field, the others fall back to it.
  const textOf = (f: FieldSpec): string => (f.localized ? localeText(draft, texts, locale, f.key) : text(draft[f.key]));
  const setText = (f: FieldSpec, v: string): void => {
    if (f.localized && locale !== BASE_LOCALE) setDraft({ ...draft, texts: withLocaleText(texts, locale, f.key, v) });
    else set(f.key, v);
  };
  const labelOf = (f: FieldSpec): string => (f.localized ? `${t(f.label)} · ${LOCALE_NAMES[locale]}` : t(f.label));
  const fallback = (f: FieldSpec): string | undefined => (f.localized && locale !== BASE_LOCALE ? text(draft[f.key]) : undefined);
  return (
    <div className={ui.overlay} onClick={onClose}>
      <div className={ui.dialog} role="dialog" aria-modal="true" aria-label={t('content.edit')} onClick={(e) => { e.stopPropagation(); }}>
        <h2>{item.id ? t('content.edit') : t('content.add')}</h2>
        <div className={css.stack}>
          {localized && <LocaleTabs value={locale} onChange={setLocale} texts={texts} />}
          {spec.fields
            .filter((f) => f.key !== 'listings')
            .map((f) => (
              <Field key={f.key} label={labelOf(f)}>
                {f.type === 'text' && <input className={ui.input} name={f.key} value={textOf(f)} placeholder={fallback(f)} onChange={(e) => { setText(f, e.target.value); }} />}
                {f.type === 'textarea' && <textarea className={ui.textarea} name={f.key} value={textOf(f)} placeholder={fallback(f)} onChange={(e) => { setText(f, e.target.value); }} />}
                {f.type === 'number' && (
                  <input className={ui.input} name={f.key} type="number" value={Number(draft[f.key] ?? 0)} onChange={(e) => { set(f.key, Number(e.target.value)); }} />
                )}
                {f.type === 'flag' && (
                  <select className={ui.select} name={f.key} value={Number(draft[f.key] ?? 0)} onChange={(e) => { set(f.key, Number(e.target.value)); }}>
                    <option value={1}>{t('common.yes')}</option>
                    <option value={0}>{t('common.no')}</option>
                  </select>
                )}
                {f.type === 'image' && <UploadInput accept="image/*" value={text(draft[f.key])} onChange={(v) => { set(f.key, v); }} />}
                {f.type === 'video' && <UploadInput accept="video/mp4,video/webm" value={text(draft[f.key])} onChange={(v) => { set(f.key, v); }} />}
                {f.type === 'user' && <UserPicker value={text(draft[f.key])} onChange={(v) => { set(f.key, v); }} />}
                {f.type === 'photos' && <Photos value={(draft[f.key] as string[] | undefined) ?? []} onChange={(v) => { set(f.key, v); }} />}
              </Field>
            ))}
        </div>
        <div className={ui.dialogActions}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button variant="primary" disabled={save.isPending} onClick={() => { save.mutate(); }}>
            {t('common.save')}
          </Button>
        </div>
      </div>
    </div>
  );
}

function Photos({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  const { t } = useT();
  return (
    <div className={css.stack}>
      <div className={css.inline}>
        {value.map((p, i) => (
          <span key={`${i}${p}`} className={css.inline}>
            <img className={css.thumb} src={p} alt="" />
            <Button small onClick={() => { onChange(value.filter((_, j) => j !== i)); }}>
              ×
            </Button>
          </span>
        ))}
      </div>
      {value.length < 9 && <UploadInput accept="image/*" value="" onChange={(url) => {
            if (url) onChange([...value, url]);
          }} />}
      <span className={ui.muted}>{t('content.photosHint')}</span>
    </div>
  );
}

interface Notice {
  id: string;
  title: string;
  content: string;
  userId?: string;
  texts?: Texts;
  createdAt: number;
}

function Notices() {
  const { t } = useT();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [account, setAccount] = useState('');
  // The zh-CN text is title/content; the other languages' are in texts (issue 35 #9).
  const [texts, setTexts] = useState<Texts>({});
  const [locale, setLocale] = useState<ContentLocale>(BASE_LOCALE);
  const [confirming, setConfirming] = useState(false);
  // The notice being edited (its texts are in the form above); null while writing a new one.
  const [editing, setEditing] = useState<Notice | null>(null);
  const list = useQuery({ queryKey: ['content', 'notices', page], queryFn: () => api<Page<Notice>>('/admin/notice/list', { page, pageSize: 20 }) });
  const remove = useMutation({
    mutationFn: (id: string) => api('/admin/notice/delete', { id }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['content', 'notices'] }),
  });
  const publish = async () => {
    if (editing) await api('/admin/notice/update', { id: editing.id, title: title.trim(), content: content.trim(), texts });
    else await api('/admin/notice/publish', { title: title.trim(), content: content.trim(), texts, account: account.trim() });
    showToast(editing ? t('common.saved') : t('content.published'));
    setEditing(null);
    setTitle('');
    setContent('');
    setTexts({});
    setLocale(BASE_LOCALE);
    setAccount('');
    void qc.invalidateQueries({ queryKey: ['content', 'notices'] });
  };
  return (
    <div className={css.stack}>
      <div className={css.stack}>
        <LocaleTabs value={locale} onChange={setLocale} texts={texts} />
        <Field label={`${t('content.title')} · ${LOCALE_NAMES[locale]}`}>
          <input
            className={ui.input}
            name="noticeTitle"
            value={localeText({ title }, texts, locale, 'title')}
            placeholder={locale === BASE_LOCALE ? undefined : title}
            maxLength={100}
            onChange={(e) => {
              if (locale === BASE_LOCALE) setTitle(e.target.value);
              else setTexts(withLocaleText(texts, locale, 'title', e.target.value));
            }}
          />
        </Field>
        <Field label={`${t('content.body')} · ${LOCALE_NAMES[locale]}`}>
          <textarea
            className={ui.textarea}
            name="noticeContent"
            value={localeText({ content }, texts, locale, 'content')}
            placeholder={locale === BASE_LOCALE ? undefined : content}
            maxLength={5000}
            onChange={(e) => {
              if (locale === BASE_LOCALE) setContent(e.target.value);
              else setTexts(withLocaleText(texts, locale, 'content', e.target.value));
            }}
          />
        </Field>
        {!editing && (
          <Field label={t('content.toAccount')}>
            <input className={ui.input} name="noticeAccount" value={account} placeholder={t('content.toAll')} onChange={(e) => { setAccount(e.target.value); }} />
          </Field>
        )}
        <div className={ui.toolbar}>
          <Button variant="primary" disabled={!title.trim() || !content.trim()} onClick={() => { setConfirming(true); }}>
            {editing ? t('content.saveNotice') : t('content.publish')}
          </Button>
          {editing && (
            <Button
              onClick={() => {
                setEditing(null);
                setTitle('');
                setContent('');
                setTexts({});
              }}
            >
              {t('common.cancel')}
            </Button>
          )}
        </div>
      </div>
      {confirming && (
        <ConfirmDialog
          title={editing ? t('content.saveNotice') : t('content.publish')}
          message={editing ? t('content.saveNoticeText', { title: editing.title }) : account.trim() ? t('content.publishOne', { account: account.trim() }) : t('content.publishAll')}
          onConfirm={publish}
          onClose={() => { setConfirming(false); }}
        />
      )}
      {list.data && list.data.list.length > 0 && (
        <DataTable columns={[t('content.title'), t('content.audience'), t('audit.time'), '']}>
          {list.data.list.map((n) => (
            <tr key={n.id}>
              <td>{n.title}</td>
              <td>{n.userId && n.userId !== '0' ? n.userId : t('content.toAll')}</td>
              <td>{dateTime(n.createdAt)}</td>
              <td className={ui.toolbar}>
                <Button
                  small
                  data-testid="notice-edit"
                  onClick={() => {
                    setEditing(n);
                    setTitle(n.title);
                    setContent(n.content);
                    setTexts(n.texts ?? {});
                    setLocale(BASE_LOCALE);
                    window.scrollTo({ top: 0 });
                  }}
                >
                  {t('content.edit')}
                </Button>
                <ConfirmButton
                  small
                  label={t('content.delete')}
                  options={{ title: t('content.delete'), message: n.title, danger: true, onConfirm: () => remove.mutateAsync(n.id) }}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.data && <Pager page={page} pageSize={20} total={list.data.total} onPage={setPage} />}
    </div>
  );
}

interface ManifestPackage {
  version: string;
  path: string;
  remark: string;
}

interface Manifest {
  package: { normal: ManifestPackage; force: ManifestPackage };
  resource: { version: string; path: string };
}

interface Settings {
  appName: string;
  ossUrl: string;
  serviceWelcome: string;
  splashImage: string;
  splashLink: string;
  splashSeconds: number;
  /** A visit's language when it chose none and its browser speaks none of the six; "" is zh-CN. */
  defaultLanguage: string;
  videoDailyLimit: number;
  /** Read here, saved with /admin/contentHosts/save. */
  contentHosts: string[];
}

function AppSettings() {
  const { t } = useT();
  const settings = useQuery({ queryKey: ['content', 'settings'], queryFn: () => api<Settings>('/admin/settings/get') });
  const manifest = useQuery({ queryKey: ['content', 'manifest'], queryFn: () => api<Manifest>('/admin/manifest/get') });
  return (
    <div className={css.grid2}>
      {settings.data && <SettingsForm initial={settings.data} />}
      {manifest.data && <ManifestForm initial={manifest.data} />}
      {!settings.data && !manifest.data && (settings.isError || manifest.isError) && <p className={ui.error}>{t('common.loadFailed')}</p>}
    </div>
  );
}

/** Posts body to path once confirmed, then reloads the app section's settings or manifest. */
function SaveButton({ variant, title, message, path, body, reload }: {
  variant?: 'primary';
  title: string;
  message: string;
  path: string;
  body: object;
  reload: 'settings' | 'manifest';
}) {
  const { t } = useT();
  const qc = useQueryClient();
  return (
    <ConfirmButton
      label={t('common.save')}
      variant={variant}
      options={{
        title,
        message,
        onConfirm: async () => {
          await api(path, body);
          showToast(t('common.saved'));
          void qc.invalidateQueries({ queryKey: ['content', reload] });
        },
      }}
    />
  );
}

function SettingsForm({ initial }: { initial: Settings }) {
  const { t } = useT();
  const [s, setS] = useState(initial);
  const [limit, setLimit] = useState(String(initial.videoDailyLimit));
  const [hosts, setHosts] = useState(initial.contentHosts.join('\n'));
  const set = (k: keyof Settings, v: string | number) => { setS({ ...s, [k]: v }); };
  const body: Omit<Settings, 'videoDailyLimit' | 'contentHosts'> = {
    appName: s.appName,
    ossUrl: s.ossUrl,
    serviceWelcome: s.serviceWelcome,
    splashImage: s.splashImage,
    splashLink: s.splashLink,
    splashSeconds: s.splashSeconds,
    defaultLanguage: s.defaultLanguage,
  };
  return (
    <div className={css.stack}>
      <h3 className={css.subTitle}>{t('content.settings')}</h3>
      <Field label={t('content.appName')}>
        <input className={ui.input} value={s.appName} onChange={(e) => { set('appName', e.target.value); }} />
      </Field>
      <Field label={t('content.ossUrl')}>
        <input className={ui.input} value={s.ossUrl} onChange={(e) => { set('ossUrl', e.target.value); }} />
      </Field>
      <Field label={t('content.welcome')}>
        <textarea className={ui.textarea} value={s.serviceWelcome} onChange={(e) => { set('serviceWelcome', e.target.value); }} />
      </Field>
      <Field label={t('content.splashImage')}>
        <UploadInput accept="image/*" value={s.splashImage} onChange={(v) => { set('splashImage', v); }} />
      </Field>
      <Field label={t('content.splashLink')}>
        <input className={ui.input} value={s.splashLink} onChange={(e) => { set('splashLink', e.target.value); }} />
      </Field>
      <Field label={t('content.splashSeconds')}>
        <input className={ui.input} type="number" value={s.splashSeconds} onChange={(e) => { set('splashSeconds', Number(e.target.value)); }} />
      </Field>
      <Field label={t('content.defaultLanguage')}>
        <select className={ui.input} value={s.defaultLanguage || BASE_LOCALE} onChange={(e) => { set('defaultLanguage', e.target.value); }}>
          {CONTENT_LOCALES.map((l) => <option key={l} value={l}>{LOCALE_NAMES[l]}</option>)}
        </select>
      </Field>
      <div>
        <SaveButton variant="primary" title={t('content.settings')} message={t('content.saveText')} path="/admin/settings/save" body={body} reload="settings" />
      </div>
      <h3 className={css.subTitle}>{t('content.videoLimit')}</h3>
      <div className={css.inline}>
        <input className={ui.input} type="number" min={0} max={10000} value={limit} aria-label={t('content.videoLimit')} onChange={(e) => { setLimit(e.target.value); }} />
        <SaveButton title={t('content.videoLimit')} message={t('content.videoLimitText', { limit })} path="/admin/video/limit" body={{ limit: Number(limit) }} reload="settings" />
      </div>
      <h3 className={css.subTitle}>{t('content.contentHosts')}</h3>
      <Field label={t('content.contentHostsHint')}>
        <textarea className={ui.textarea} value={hosts} placeholder="https://cdn.example.com" onChange={(e) => { setHosts(e.target.value); }} />
      </Field>
      <div>
        <SaveButton
          title={t('content.contentHosts')}
          message={t('content.contentHostsText')}
          path="/admin/contentHosts/save"
          body={{ hosts: hosts.split('\n').map((h) => h.trim()).filter((h) => h !== '') }}
          reload="settings"
        />
      </div>
    </div>
  );
}

function ManifestForm({ initial }: { initial: Manifest }) {
  const { t } = useT();
  const [m, setM] = useState(initial);
  const pkg = (which: 'normal' | 'force', k: keyof ManifestPackage, v: string) => { setM({ ...m, package: { ...m.package, [which]: { ...m.package[which], [k]: v } } }); };
  return (
    <div className={css.stack}>
      <h3 className={css.subTitle}>{t('content.manifest')}</h3>
      {(['normal', 'force'] as const).map((which) => (
        <div key={which} className={ui.formGrid}>
          <Field label={`${t(which === 'normal' ? 'content.normal' : 'content.force')} · ${t('content.version')}`}>
            <input className={ui.input} value={m.package[which].version} onChange={(e) => { pkg(which, 'version', e.target.value); }} />
          </Field>
          <Field label={t('content.path')}>
            <input className={ui.input} value={m.package[which].path} onChange={(e) => { pkg(which, 'path', e.target.value); }} />
          </Field>
          <Field label={t('content.remark')}>
            <input className={ui.input} value={m.package[which].remark} onChange={(e) => { pkg(which, 'remark', e.target.value); }} />
          </Field>
        </div>
      ))}
      <div className={ui.formGrid}>
        <Field label={`${t('content.resource')} · ${t('content.version')}`}>
          <input className={ui.input} value={m.resource.version} onChange={(e) => { setM({ ...m, resource: { ...m.resource, version: e.target.value } }); }} />
        </Field>
        <Field label={t('content.path')}>
          <input className={ui.input} value={m.resource.path} onChange={(e) => { setM({ ...m, resource: { ...m.resource, path: e.target.value } }); }} />
        </Field>
      </div>
      <div>
        <SaveButton variant="primary" title={t('content.manifest')} message={t('content.saveText')} path="/admin/manifest/save" body={m} reload="manifest" />
      </div>
    </div>
  );
}
