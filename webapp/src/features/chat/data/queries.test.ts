import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ChatRequestError, SocketErrorCode } from '../../../api/socket/protocol';
import { retryAfterDrop } from './queries';

describe('retryAfterDrop', () => {
  it('asks again a read the dropped socket cut off, a few times, and nothing else', () => {
    const dropped = new ChatRequestError(SocketErrorCode.closed, 'socket closed', 'GetAdvancedHistoryMessageList');
    expect(retryAfterDrop(0, dropped)).toBe(true);
    expect(retryAfterDrop(3, dropped)).toBe(false);
    expect(retryAfterDrop(0, new ChatRequestError(1308, 'not yours', 'GetAdvancedHistoryMessageList'))).toBe(false);
    expect(retryAfterDrop(0, new Error('other'))).toBe(false);
  });

  it('turns a load that met a drop into data once the socket answers', async () => {
    const client = new QueryClient();
    let calls = 0;
    const data = await client.query({
      queryKey: ['chat', 'messages', 'si_1_2'],
      queryFn: () => {
        calls += 1;
        if (calls === 1) return Promise.reject(new ChatRequestError(SocketErrorCode.closed, 'socket closed', 'x'));
        return Promise.resolve({ messages: [], isEnd: true });
      },
      retry: retryAfterDrop,
      retryDelay: 1,
    });
    expect(calls).toBe(2);
    expect(data).toEqual({ messages: [], isEnd: true });
  });
});
