/**
 * The customer-service conversation: history over HTTP (paged, newest first), live messages
 * over `/ws/customer`, and optimistic sends (sending → sent, or failed with a retry). When
 * the socket is down a message goes over HTTP instead; after a reconnect the newest page is
 * loaded again so nothing said meanwhile is missed.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import {
  customerApi,
  CustomerSocket,
  newClientMsgId,
  uploadCustomerImage,
  type CustomerAbout,
  type CustomerApi,
  type CustomerMessage,
  type CustomerServerFrame,
  type CustomerSocketState,
} from '../../api/customer';
import { currentLanguage } from '../../i18n';

export const customerKeys = {
  init: ['customer', 'init'] as const,
  history: ['customer', 'history'] as const,
};

export interface OutgoingMessage {
  clientMsgId: string;
  /** The text, or the picture's address once uploaded. */
  content: string;
  createdAt: number;
  state: 'sending' | 'failed';
  error?: string;
  /** What the message asks about (a listing, a video, an amount). */
  about?: CustomerAbout;
  /** A picture still to upload (kept for a retry), and its local preview. */
  file?: Blob;
  preview?: string;
}

export type ChatItem =
  | { kind: 'message'; message: CustomerMessage }
  | { kind: 'outgoing'; outgoing: OutgoingMessage };

/** Ids are decimal strings beyond 2^53: compare them as big integers. */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Messages oldest first, each once, with the newest status seen for it. */
export function mergeMessages(...lists: readonly (readonly CustomerMessage[])[]): CustomerMessage[] {
  const byId = new Map<string, CustomerMessage>();
  for (const list of lists) {
    for (const m of list) {
      const seen = byId.get(m._id);
      byId.set(m._id, seen && seen.status > m.status ? seen : m);
    }
  }
  return [...byId.values()].sort((a, b) => a.createdAt - b.createdAt || compareIds(a._id, b._id));
}

interface Options {
  api?: CustomerApi;
  createSocket?: (url: string) => WebSocket;
  upload?: (file: Blob) => Promise<string>;
}

export function useCustomerChat({ api = customerApi, createSocket, upload = uploadCustomerImage }: Options = {}) {
  const init = useQuery({ queryKey: customerKeys.init, queryFn: () => api.init({ quiet: true }), staleTime: Infinity });
  const ready = init.isSuccess;
  const history = useInfiniteQuery({
    queryKey: customerKeys.history,
    queryFn: ({ pageParam }) => api.messages(pageParam, 20, { quiet: true }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.page < last.pages ? last.page + 1 : undefined),
    enabled: ready,
    staleTime: Infinity,
  });
  const [live, setLive] = useState<CustomerMessage[]>([]);
  const [outgoing, setOutgoing] = useState<OutgoingMessage[]>([]);
  const [socketState, setSocketState] = useState<CustomerSocketState>('connecting');
  const [service, setService] = useState<{ serviceId: string; serviceName: string } | null>(null);
  /** Visitor messages up to this id were read by the agent. */
  const [readUpto, setReadUpto] = useState<string | null>(null);
  const socket = useRef<CustomerSocket | null>(null);

  const addLive = useCallback((messages: readonly CustomerMessage[]) => {
    if (messages.length === 0) return;
    setLive((old) => mergeMessages(old, messages));
  }, []);

  const catchUp = useCallback(async () => {
    try {
      const page = await api.messages(1, 20, { quiet: true });
      addLive(page.list);
    } catch {
      // The next reconnect or the user's next action tries again.
    }
  }, [api, addLive]);

  useEffect(() => {
    if (!ready) return undefined;
    const onFrame = (frame: CustomerServerFrame): void => {
      switch (frame.type) {
        case 'message':
          if (frame.message.from === 'visitor') {
            // The socket hears its own messages, sometimes before the ack: the oldest message
            // still sending with this text is this one (a socket's frames are handled in order).
            const content = frame.message.content;
            setOutgoing((old) => {
              const index = old.findIndex((o) => o.state === 'sending' && o.content === content);
              return index < 0 ? old : old.filter((_, i) => i !== index);
            });
          }
          addLive([frame.message]);
          if (frame.message.from === 'agent' && document.visibilityState === 'visible') socket.current?.markRead();
          break;
        case 'ack':
          setOutgoing((old) => old.filter((o) => o.clientMsgId !== frame.clientMsgId));
          addLive([frame.message]);
          break;
        case 'error':
          if (frame.clientMsgId) {
            const id = frame.clientMsgId;
            setOutgoing((old) => old.map((o) => (o.clientMsgId === id ? { ...o, state: 'failed', error: frame.message } : o)));
          }
          break;
        case 'read':
          if (frame.by === 'agent' && frame.upto) {
            const upto = frame.upto;
            setReadUpto((old) => (old && compareIds(old, upto) >= 0 ? old : upto));
          }
          break;
        case 'assigned':
          setService({ serviceId: frame.serviceId, serviceName: frame.serviceName });
          break;
        case 'init':
          if (frame.serviceName) setService({ serviceId: frame.serviceId ?? '', serviceName: frame.serviceName });
          break;
        case 'pong':
          break;
      }
    };
    const s = new CustomerSocket({
      language: () => currentLanguage(),
      onFrame,
      onState: setSocketState,
      onReconnect: () => {
        void catchUp();
      },
      ...(createSocket ? { createSocket } : {}),
    });
    socket.current = s;
    s.connect();
    return () => {
      s.close();
      socket.current = null;
    };
  }, [ready, addLive, catchUp, createSocket]);

  const fail = useCallback((clientMsgId: string, error: unknown) => {
    const text = error instanceof ApiError ? error.message : '';
    setOutgoing((old) =>
      old.map((o) => (o.clientMsgId === clientMsgId ? { ...o, state: 'failed', ...(text ? { error: text } : {}) } : o)),
    );
  }, []);

  const deliver = useCallback(
    async (given: OutgoingMessage) => {
      let item = given;
      if (item.file) {
        // A picture: upload it first; the message is its address.
        try {
          const url = await upload(item.file);
          item = { ...item, content: url };
          delete item.file;
          const done = item;
          setOutgoing((old) => old.map((o) => (o.clientMsgId === done.clientMsgId ? done : o)));
        } catch (error) {
          fail(item.clientMsgId, error);
          return;
        }
      }
      if (socket.current?.send(item.content, item.clientMsgId, item.about)) return;
      // No socket: send over HTTP.
      try {
        const message = await api.send(item.content, { quiet: true }, item.about);
        setOutgoing((old) => old.filter((o) => o.clientMsgId !== item.clientMsgId));
        addLive([message]);
      } catch (error) {
        fail(item.clientMsgId, error);
      }
    },
    [api, addLive, upload, fail],
  );

  // A message the socket took but never acknowledged (the socket dropped): fail it after 10 s.
  useEffect(() => {
    const sending = outgoing.filter((o) => o.state === 'sending');
    if (sending.length === 0) return undefined;
    const timer = setTimeout(() => {
      const cutoff = Date.now() - 10_000;
      setOutgoing((old) => old.map((o) => (o.state === 'sending' && o.createdAt < cutoff ? { ...o, state: 'failed' } : o)));
    }, 10_500);
    return () => {
      clearTimeout(timer);
    };
  }, [outgoing]);

  const send = useCallback(
    (content: string, about?: CustomerAbout) => {
      const item: OutgoingMessage = { clientMsgId: newClientMsgId(), content, createdAt: Date.now(), state: 'sending', ...(about ? { about } : {}) };
      setOutgoing((old) => [...old, item]);
      void deliver(item);
    },
    [deliver],
  );

  const sendImage = useCallback(
    (file: Blob) => {
      const item: OutgoingMessage = {
        clientMsgId: newClientMsgId(),
        content: '',
        createdAt: Date.now(),
        state: 'sending',
        file,
        preview: URL.createObjectURL(file),
      };
      setOutgoing((old) => [...old, item]);
      void deliver(item);
    },
    [deliver],
  );

  // Local previews are freed once their message is gone from the outgoing list.
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const current = new Set(outgoing.flatMap((o) => (o.preview ? [o.preview] : [])));
    for (const url of previews.current) if (!current.has(url)) URL.revokeObjectURL(url);
    previews.current = current;
  }, [outgoing]);
  useEffect(
    () => () => {
      for (const url of previews.current) URL.revokeObjectURL(url);
    },
    [],
  );

  const retry = useCallback(
    (clientMsgId: string) => {
      const found = outgoing.find((o) => o.clientMsgId === clientMsgId);
      if (!found) return;
      // A fresh client id: the server may have stored the first try (the ack was lost).
      const item: OutgoingMessage = { ...found, clientMsgId: newClientMsgId(), state: 'sending', createdAt: Date.now() };
      delete item.error;
      setOutgoing((old) => [...old.filter((o) => o.clientMsgId !== clientMsgId), item]);
      void deliver(item);
    },
    [outgoing, deliver],
  );

  const messages = useMemo(() => {
    const older = history.data?.pages.flatMap((p) => p.list) ?? [];
    const merged = mergeMessages(older, live);
    if (!readUpto) return merged;
    return merged.map((m) => (m.from === 'visitor' && m.status < 2 && compareIds(m._id, readUpto) <= 0 ? { ...m, status: 2 } : m));
  }, [history.data, live, readUpto]);

  return {
    init,
    history,
    messages,
    outgoing,
    socketState,
    serviceName: service?.serviceName ?? init.data?.serviceName ?? '',
    send,
    sendImage,
    retry,
  };
}
