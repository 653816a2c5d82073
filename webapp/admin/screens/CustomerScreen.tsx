/**
 * The customer-service inbox: visitors and users waiting (the agent's own and unassigned ones,
 * or everyone's), unread counts, the live chat over /ws/customer as an agent, canned replies
 * kept per operator in this browser, and handing a conversation to another agent. The desk bar
 * switches "taking chats" (new enquiries come only to operators taking chats and signed in here)
 * and sets the name players see; an enquiry unanswered too long is marked unclaimed.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { api } from '../api/client';
import type { CustomerMessage, Operator, Page, Visitor } from '../api/types';
import { useT } from '../i18n/useT';
import { sessionAtom } from '../state/session';
import { dateTime, money } from '../ui/format';
import { Button, Card, ConfirmButton, Empty, ui, useFailToast } from '../ui/kit';
import { showToast } from '../ui/toast';
import css from './screens.module.css';

type SocketState = 'connecting' | 'open' | 'closed';

interface Desk {
  taking: boolean;
  displayName: string;
  available: boolean;
}

/** This operator's desk: taking chats and the name players see. */
function DeskBar() {
  const { t } = useT();
  const qc = useQueryClient();
  const fail = useFailToast();
  const desk = useQuery({ queryKey: ['customer-desk'], queryFn: () => api<Desk>('/admin/customer/desk') });
  const [name, setName] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (next: { taking: boolean; displayName: string }) => api<Desk>('/admin/customer/desk/set', next),
    onSuccess: (d) => {
      qc.setQueryData(['customer-desk'], d);
      setName(null);
      void qc.invalidateQueries({ queryKey: ['visitors'] });
    },
    onError: fail,
  });
  if (!desk.data) return null;
  const d = desk.data;
  const shownName = name ?? d.displayName;
  return (
    <div className={ui.toolbar} style={{ padding: '12px 14px 0', flexWrap: 'wrap' }} data-testid="desk">
      <label className={css.inline}>
        <input
          type="checkbox"
          checked={d.taking}
          disabled={save.isPending}
          data-testid="desk-taking"
          onChange={(e) => { save.mutate({ taking: e.target.checked, displayName: shownName }); }}
        />
        {t('customer.taking')}
      </label>
      <input
        className={ui.input}
        value={shownName}
        maxLength={32}
        placeholder={t('customer.displayNamePlaceholder')}
        aria-label={t('customer.displayName')}
        title={t('customer.displayName')}
        data-testid="desk-name"
        onChange={(e) => { setName(e.target.value); }}
      />
      <Button small disabled={name === null || save.isPending} onClick={() => { save.mutate({ taking: d.taking, displayName: shownName }); }} data-testid="desk-save">
        {t('customer.saveDesk')}
      </Button>
      {!d.taking ? <span className={ui.muted} role="status">{t('customer.notTaking')}</span> : null}
      {d.taking && !d.available ? <span className={ui.muted} role="status">{t('customer.offline')}</span> : null}
    </div>
  );
}

/** What a visitor asked about, in the operator's words. */
function aboutText(m: CustomerMessage, t: ReturnType<typeof useT>['t']): string | null {
  const c = m.context;
  if (!c) return null;
  switch (c.kind) {
    case 'listing':
    case 'video':
      return t(`customer.about.${c.kind}`, { title: c.title ?? '' });
    case 'recharge':
      return t('customer.about.recharge', { amount: money(c.amount ?? 0), currency: c.currency ?? '' });
    case 'videoLimit':
      return t('customer.about.videoLimit');
    default:
      return null;
  }
}

/** Keeps the agent socket open (reconnecting after a drop) and refreshes the inbox on its events. */
function useAgentSocket(token: string | undefined, lang: string): SocketState {
  const qc = useQueryClient();
  const [state, setState] = useState<SocketState>('connecting');
  useEffect(() => {
    if (!token) return;
    let ws: WebSocket | null = null;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      setState('connecting');
      const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      ws = new WebSocket(`${proto}//${location.host}/ws/customer?as=agent&token=${encodeURIComponent(token)}&lang=${encodeURIComponent(lang)}`);
      ws.onopen = () => { setState('open'); };
      ws.onmessage = (ev) => {
        let frame: { type?: string; visitorNo?: string };
        try {
          frame = JSON.parse(String(ev.data)) as typeof frame;
        } catch {
          return;
        }
        if (frame.type === 'message' || frame.type === 'assigned' || frame.type === 'read') {
          void qc.invalidateQueries({ queryKey: ['visitors'] });
          if (frame.visitorNo) void qc.invalidateQueries({ queryKey: ['customer-messages', frame.visitorNo] });
        }
      };
      ws.onclose = () => {
        setState('closed');
        if (!stopped) retry = setTimeout(connect, 3_000);
      };
    };
    connect();
    const ping = setInterval(() => {
      if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'ping' }));
    }, 20_000);
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(ping);
      ws?.close();
    };
  }, [token, lang, qc]);
  return state;
}

export function CustomerScreen() {
  const { t, lang } = useT();
  const session = useAtomValue(sessionAtom);
  const socket = useAgentSocket(session?.token, lang);
  const [all, setAll] = useState(false);
  const [selected, setSelected] = useState<string | null>(null);
  const visitors = useQuery({
    queryKey: ['visitors', all],
    queryFn: () => api<Page<Visitor>>('/admin/customer/visitors', { all, page: 1, pageSize: 50 }),
    refetchInterval: 15_000,
  });
  const current = visitors.data?.list.find((v) => v.visitorNo === selected) ?? null;
  return (
    <div className={css.chat}>
      <Card className={css.visitorList}>
        <DeskBar />
        <div className={ui.toolbar} style={{ padding: '12px 14px 0' }}>
          <label className={css.inline}>
            <input type="checkbox" checked={all} onChange={(e) => { setAll(e.target.checked); }} />
            {t('customer.all')}
          </label>
          <span className={ui.muted} data-testid="socket-state">
            {t(`customer.socket.${socket}`)}
          </span>
        </div>
        {visitors.data?.list.length === 0 && <Empty>{t('customer.noVisitors')}</Empty>}
        {visitors.data?.list.map((v) => (
          <button
            key={v.visitorNo}
            type="button"
            className={[css.visitor, v.visitorNo === selected && css.visitorActive].filter(Boolean).join(' ')}
            onClick={() => { setSelected(v.visitorNo); }}
            data-visitor={v.visitorNo}
          >
            <span className={css.visitorTop}>
              <strong>{v.account ? `${v.nickname || v.account} (${v.account})` : t('customer.guest', { no: v.visitorNo.slice(-6) })}</strong>
              {v.unread > 0 && <span className={css.unread}>{v.unread}</span>}
            </span>
            <span className={ui.muted}>{v.lastMessage || '—'}</span>
            <span className={css.statSub}>
              {dateTime(v.lastMessageAt || v.createdAt)}
              {v.serviceId === '0' ? ` · ${t('customer.unassigned')}` : ''}
            </span>
            {v.unclaimed ? (
              <span className={css.unread} data-testid="unclaimed" style={{ alignSelf: 'flex-start' }}>
                {t('customer.unclaimed', { minutes: Math.max(1, Math.floor((visitors.dataUpdatedAt - v.waitingSince) / 60_000)) })}
              </span>
            ) : null}
          </button>
        ))}
      </Card>
      {current ? <Conversation visitor={current} /> : <Card><Empty>{t('customer.pick')}</Empty></Card>}
    </div>
  );
}

const CANNED_KEY = 'kj.admin.canned';

function useCanned(defaults: string[]): [string[], (list: string[]) => void] {
  const [list, setList] = useState<string[]>(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(CANNED_KEY) ?? 'null') as unknown;
      if (Array.isArray(saved) && saved.every((s) => typeof s === 'string')) return saved;
    } catch {
      // a damaged entry falls back to the defaults
    }
    return defaults;
  });
  return [
    list,
    (next) => {
      localStorage.setItem(CANNED_KEY, JSON.stringify(next));
      setList(next);
    },
  ];
}

function Conversation({ visitor }: { visitor: Visitor }) {
  const { t } = useT();
  const qc = useQueryClient();
  const fail = useFailToast();
  const [text, setText] = useState('');
  const [canned, setCanned] = useCanned([t('customer.canned1'), t('customer.canned2'), t('customer.canned3')]);
  const [handTo, setHandTo] = useState('');
  const bottom = useRef<HTMLDivElement>(null);
  const messages = useQuery({
    queryKey: ['customer-messages', visitor.visitorNo],
    queryFn: () => api<Page<CustomerMessage>>('/admin/customer/messages', { visitorNo: visitor.visitorNo, page: 1, pageSize: 50 }),
    // The socket carries this agent's conversations; another agent's (the "every visitor" view)
    // are refreshed by polling.
    refetchInterval: 10_000,
  });
  const agents = useQuery({ queryKey: ['customer-agents'], queryFn: () => api<Operator[]>('/admin/customer/agents') });
  const send = useMutation({
    mutationFn: (content: string) => api<CustomerMessage>('/admin/customer/reply', { visitorNo: visitor.visitorNo, content }),
    onSuccess: () => {
      setText('');
      void qc.invalidateQueries({ queryKey: ['customer-messages', visitor.visitorNo] });
      void qc.invalidateQueries({ queryKey: ['visitors'] });
    },
    onError: fail,
  });
  const list = [...(messages.data?.list ?? [])].reverse();
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [list.length]);
  const submit = () => {
    const content = text.trim();
    if (content) send.mutate(content);
  };
  return (
    <Card className={css.conversation}>
      <div className={ui.toolbar} style={{ padding: '12px 16px 0' }}>
        <strong>{visitor.account ? `${visitor.nickname || visitor.account} (${visitor.account})` : t('customer.guest', { no: visitor.visitorNo.slice(-6) })}</strong>
        <span style={{ flex: 1 }} />
        <select className={ui.select} value={handTo} aria-label={t('customer.handTo')} onChange={(e) => { setHandTo(e.target.value); }}>
          <option value="">{t('customer.handTo')}</option>
          {agents.data
            ?.filter((a) => a.userId !== visitor.serviceId)
            .map((a) => (
              <option key={a.userId} value={a.userId}>
                {a.nickName || a.account}
              </option>
            ))}
        </select>
        <ConfirmButton
          label={t('customer.handOver')}
          small
          disabled={!handTo}
          options={{
            title: t('customer.handOver'),
            message: t('customer.handOverText'),
            onConfirm: async () => {
              await api('/admin/customer/handover', { visitorNo: visitor.visitorNo, serviceId: handTo });
              showToast(t('common.done'));
              setHandTo('');
              void qc.invalidateQueries({ queryKey: ['visitors'] });
            },
          }}
        />
      </div>
      <div className={css.messages} data-testid="messages">
        {list.map((m) => (
          <div key={m._id} className={[css.bubble, m.from === 'agent' && css.mine].filter(Boolean).join(' ')}>
            {aboutText(m, t) ? (
              <div className={css.meta} data-testid="enquiry-about">
                {aboutText(m, t)}
              </div>
            ) : null}
            {m.content}
            <div className={css.meta}>{dateTime(m.createdAt)}</div>
          </div>
        ))}
        <div ref={bottom} />
      </div>
      <div className={css.composer}>
        <div className={css.canned}>
          {canned.map((c, i) => (
            <span key={`${i}${c}`} className={css.inline}>
              <Button small onClick={() => { setText(c); }} title={c}>
                {c.length > 18 ? `${c.slice(0, 18)}…` : c}
              </Button>
              <button type="button" className={ui.muted} style={{ border: 0, background: 'none', cursor: 'pointer' }} aria-label={t('customer.removeCanned')} onClick={() => { setCanned(canned.filter((_, j) => j !== i)); }}>
                ×
              </button>
            </span>
          ))}
          <Button small disabled={!text.trim() || canned.includes(text.trim())} onClick={() => { setCanned([...canned, text.trim()]); }}>
            {t('customer.saveCanned')}
          </Button>
        </div>
        <textarea
          className={ui.textarea}
          value={text}
          maxLength={2000}
          placeholder={t('customer.placeholder')}
          aria-label={t('customer.placeholder')}
          onChange={(e) => { setText(e.target.value); }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
        />
        <div style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button variant="primary" disabled={!text.trim() || send.isPending} onClick={submit} data-testid="customer-send">
            {t('customer.send')}
          </Button>
        </div>
      </div>
    </Card>
  );
}
