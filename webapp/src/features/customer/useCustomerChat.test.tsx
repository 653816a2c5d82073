import { QueryClient } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { createStore } from 'jotai';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CustomerMessage } from '../../api/customer';
import { AppProviders } from '../../app/AppProviders';
import { createI18n } from '../../i18n';
import { stubApi } from '../../test/routeStub';
import { compareIds, mergeMessages, useCustomerChat } from './useCustomerChat';
import { imageUrlOf } from './MessageBubble';

class FakeSocket {
  static last: FakeSocket | null = null;
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(text: string): void {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }
  close(): void {
    this.readyState = 3;
  }
}

function message(id: string, from: 'visitor' | 'agent', content: string, createdAt: number, status = 1): CustomerMessage {
  return { _id: id, visitorNo: '9', from, serviceId: '1', content, status, createdAt };
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <AppProviders i18n={createI18n('en-US')} store={createStore()} queryClient={client}>
      {children}
    </AppProviders>
  );
}

const createSocket = (url: string) => new FakeSocket(url) as unknown as WebSocket;

/** Renders the hook and opens its socket; `push` delivers a frame as the server would. */
async function openChat(options: Parameters<typeof useCustomerChat>[0] = { createSocket }) {
  const hook = renderHook(() => useCustomerChat(options), { wrapper });
  await waitFor(() => {
    expect(FakeSocket.last).not.toBeNull();
  });
  const ws = FakeSocket.last!;
  act(() => {
    ws.readyState = 1;
    ws.onopen?.();
  });
  const push = (data: object) => {
    act(() => {
      ws.onmessage?.({ data: JSON.stringify(data) });
    });
  };
  return { result: hook.result, ws, push };
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeSocket.last = null;
});

describe('mergeMessages', () => {
  it('orders by time then id, keeps each message once with its newest status', () => {
    const a = message('382433739633852416', 'visitor', 'a', 10);
    const b = message('382433739633852417', 'agent', 'b', 10);
    const c = message('99', 'visitor', 'c', 5);
    const merged = mergeMessages([b, a], [c, { ...a, status: 2 }], [a]);
    expect(merged.map((m) => m.content)).toEqual(['c', 'a', 'b']);
    expect(merged[1]!.status).toBe(2);
  });

  it('compares ids beyond 2^53 exactly', () => {
    expect(compareIds('9007199254740993', '9007199254740992')).toBeGreaterThan(0);
    expect(compareIds('99', '100')).toBeLessThan(0);
    expect(compareIds('5', '5')).toBe(0);
  });
});

describe('imageUrlOf', () => {
  it('recognises an image the agent sent as a link', () => {
    expect(imageUrlOf('/files/content/a.png')).toBe('/files/content/a.png');
    expect(imageUrlOf('https://cdn.example/x/photo.JPG?v=2')).toBe('https://cdn.example/x/photo.JPG?v=2');
    expect(imageUrlOf('look at /files/a.png')).toBeNull();
    expect(imageUrlOf('/etc/passwd.png')).toBeNull();
    expect(imageUrlOf('javascript:alert(1).png')).toBeNull();
    expect(imageUrlOf('https://example.com/page')).toBeNull();
  });
});

describe('useCustomerChat', () => {
  function stub() {
    return stubApi({
      '/customer/init': { visitorId: 'v_1', visitorNo: '9', userId: '0', serviceId: '1', serviceName: 'Ann', welcome: 'Hi', unread: 0 },
      '/customer/messages': (body) =>
        body.page === 1
          ? { list: [message('20', 'agent', 'newest', 20)], total: 2, page: 1, pageSize: 20, pages: 2 }
          : { list: [message('10', 'visitor', 'oldest', 10)], total: 2, page: 2, pageSize: 20, pages: 2 },
      '/customer/send': (body) => message('30', 'visitor', String(body.content), 30),
    });
  }

  it('sends over the socket: sending until the ack, then the stored message', async () => {
    stub();
    const { result, ws, push } = await openChat();
    await waitFor(() => {
      expect(result.current.messages.map((m) => m.content)).toEqual(['newest']);
    });
    act(() => {
      result.current.send('hello');
    });
    expect(result.current.outgoing).toMatchObject([{ content: 'hello', state: 'sending' }]);
    const frame = ws.sent[0]!;
    expect(frame).toMatchObject({ type: 'send', content: 'hello' });
    push({ type: 'ack', clientMsgId: frame.clientMsgId, message: message('21', 'visitor', 'hello', 21) });
    expect(result.current.outgoing).toEqual([]);
    expect(result.current.messages.map((m) => m.content)).toEqual(['newest', 'hello']);
    // The agent reads it, then answers.
    act(() => {
      ws.onmessage?.({ data: JSON.stringify({ type: 'read', visitorNo: '9', by: 'agent', upto: '21' }) });
      ws.onmessage?.({ data: JSON.stringify({ type: 'message', visitorNo: '9', message: message('22', 'agent', 'welcome', 22) }) });
    });
    expect(result.current.messages.find((m) => m._id === '21')?.status).toBe(2);
    expect(result.current.messages.at(-1)?.content).toBe('welcome');
    expect(ws.sent.at(-1)).toEqual({ type: 'read' });
  });

  it('takes its own message heard before the ack as delivered', async () => {
    stub();
    const { result, push } = await openChat();
    act(() => {
      result.current.send('twice');
      result.current.send('twice');
    });
    expect(result.current.outgoing).toHaveLength(2);
    const [first, second] = result.current.outgoing;
    push({ type: 'message', visitorNo: '9', message: message('31', 'visitor', 'twice', 31) });
    expect(result.current.outgoing.map((o) => o.clientMsgId)).toEqual([second!.clientMsgId]);
    push({ type: 'ack', clientMsgId: first!.clientMsgId, message: message('31', 'visitor', 'twice', 31) });
    expect(result.current.messages.filter((m) => m.content === 'twice')).toHaveLength(1);
    expect(result.current.outgoing).toHaveLength(1);
  });

  it('marks a refused message failed and sends it again on retry', async () => {
    stub();
    const { result, ws, push } = await openChat();
    act(() => {
      result.current.send('again');
    });
    const first = ws.sent[0]!;
    push({ type: 'error', clientMsgId: first.clientMsgId, code: 1007, message: 'Too many requests' });
    expect(result.current.outgoing).toMatchObject([{ state: 'failed', error: 'Too many requests' }]);
    act(() => {
      result.current.retry(result.current.outgoing[0]!.clientMsgId);
    });
    expect(result.current.outgoing).toMatchObject([{ state: 'sending', content: 'again' }]);
    expect(ws.sent[1]).toMatchObject({ type: 'send', content: 'again' });
    expect(ws.sent[1]!.clientMsgId).not.toBe(first.clientMsgId);
  });

  it('falls back to HTTP while the socket is down, and loads older pages', async () => {
    const api = stub();
    const { result } = renderHook(() => useCustomerChat({ createSocket }), { wrapper });
    await waitFor(() => {
      expect(result.current.messages).toHaveLength(1);
    });
    act(() => {
      result.current.send('by http');
    });
    await waitFor(() => {
      expect(result.current.messages.map((m) => m.content)).toContain('by http');
    });
    expect(result.current.outgoing).toEqual([]);
    expect(api.called('/customer/send')[0]!.body).toEqual({ content: 'by http' });
    await act(async () => {
      await result.current.history.fetchNextPage();
    });
    await waitFor(() => {
      expect(result.current.messages.map((m) => m.content)).toEqual(['oldest', 'newest', 'by http']);
    });
  });

  it('uploads a picture first and sends its address; a failed upload is retried with the same picture', async () => {
    stub();
    const revoke = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:preview'), revokeObjectURL: revoke }));
    let fail = true;
    const upload = vi.fn<(file: Blob) => Promise<string>>(() =>
      fail ? Promise.reject(new Error('offline')) : Promise.resolve('/files/chat/1/2.png'),
    );
    const { result, ws } = await openChat({ createSocket, upload });
    const picture = new Blob(['png'], { type: 'image/png' });
    act(() => {
      result.current.sendImage(picture);
    });
    expect(result.current.outgoing[0]).toMatchObject({ state: 'sending', preview: 'blob:preview' });
    await waitFor(() => {
      expect(result.current.outgoing[0]?.state).toBe('failed');
    });
    expect(ws.sent).toHaveLength(0);
    fail = false;
    act(() => {
      result.current.retry(result.current.outgoing[0]!.clientMsgId);
    });
    await waitFor(() => {
      expect(ws.sent).toHaveLength(1);
    });
    expect(upload).toHaveBeenLastCalledWith(picture);
    expect(ws.sent[0]).toMatchObject({ type: 'send', content: '/files/chat/1/2.png' });
    act(() => {
      ws.onmessage?.({
        data: JSON.stringify({ type: 'ack', clientMsgId: ws.sent[0]!.clientMsgId, message: message('40', 'visitor', '/files/chat/1/2.png', 40) }),
      });
    });
    expect(result.current.outgoing).toEqual([]);
    await waitFor(() => {
      expect(revoke).toHaveBeenCalledWith('blob:preview');
    });
  });
});
