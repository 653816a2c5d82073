import { describe, expect, it, vi } from 'vitest';
import { createAttachmentLinks, isChatAttachment, REFRESH_MARGIN_MS } from './attachments';
import type { ApiClient } from './client';

const A = '/files/chat/ab/abababababababababababababababab.png';
const B = '/files/chat/cd/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.mp4';

function fakeClient(answer: (urls: string[]) => Record<string, string>) {
  const request = vi.fn((path: string, body?: unknown) => {
    expect(path).toBe('/chat/fileURLs');
    return Promise.resolve({ urls: answer((body as { urls: string[] }).urls) });
  });
  return { client: { request } as unknown as ApiClient, request };
}

describe('attachment links', () => {
  it('tells attachments from public files', () => {
    expect(isChatAttachment(A)).toBe(true);
    expect(isChatAttachment(`https://kj.example.com${A}`)).toBe(true);
    expect(isChatAttachment('/files/avatars/ab/face.png')).toBe(false);
    expect(isChatAttachment('/files/content/banner.png')).toBe(false);
    expect(isChatAttachment('blob:http://localhost/1')).toBe(false);
    expect(isChatAttachment(undefined)).toBe(false);
  });

  it('asks once for everything a screen shows, and keeps links until shortly before they expire', async () => {
    let now = 1_000_000_000_000;
    const expiry = now / 1000 + 600;
    const { client, request } = fakeClient((urls) =>
      Object.fromEntries(urls.filter((u) => u === A).map((u) => [u, `${u}?e=${expiry}&s=sig&u=7`])),
    );
    const links = createAttachmentLinks(client, () => now, () => 'token-a');
    const [a, b, again] = await Promise.all([links.resolve(A), links.resolve(B), links.resolve(A)]);
    expect(request).toHaveBeenCalledTimes(1);
    expect(request.mock.calls[0]?.[1]).toEqual({ urls: [A, B] });
    expect(a).toBe(`${A}?e=${expiry}&s=sig&u=7`);
    expect(again).toBe(a);
    // One the server would not sign shows nothing (never the bare, refused address).
    expect(b).toBeNull();
    expect(links.cached(A)).toBe(a);
    expect(links.renewIn(A)).toBe(600_000 - REFRESH_MARGIN_MS);
    await links.resolve(A);
    expect(request).toHaveBeenCalledTimes(1);
    // Two minutes before expiry the link is asked for again.
    now = expiry * 1000 - REFRESH_MARGIN_MS + 1;
    expect(links.cached(A)).toBeUndefined();
    expect(links.renewIn(A)).toBe(0);
    await links.resolve(A);
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('renews by the time left the server states, whatever the device clock says', async () => {
    let now = 1_000_000_000_000;
    // The device is 20 minutes slow: by its clock the link's `e` is 25 minutes away, but the server
    // says it has 301 seconds left (the shortest a link lives).
    const e = now / 1000 + 25 * 60;
    const request = vi.fn(() => Promise.resolve({ urls: { [A]: `${A}?e=${e}&s=sig&u=7` }, expiresIn: 301 }));
    const links = createAttachmentLinks({ request } as unknown as ApiClient, () => now, () => 'token-a');
    await links.resolve(A);
    const renewIn = links.renewIn(A);
    // Renewed before the link dies, and not sooner than it needs.
    expect(renewIn).toBe(301_000 - REFRESH_MARGIN_MS);
    expect(renewIn).toBeGreaterThan(60_000);
    now += renewIn;
    await links.resolve(A);
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('a failed call leaves the attachments unshown and retries later', async () => {
    let now = 0;
    const request = vi.fn(() => Promise.reject(new Error('offline')));
    const links = createAttachmentLinks({ request } as unknown as ApiClient, () => now, () => 'token-a');
    expect(await links.resolve(A)).toBeNull();
    now += 61_000;
    await links.resolve(A);
    expect(request).toHaveBeenCalledTimes(2);
  });

  it('asks nothing signed out, and forgets the links of another sign-in', async () => {
    let token = '';
    const { client, request } = fakeClient((urls) => Object.fromEntries(urls.map((u) => [u, `${u}?e=9999999999&s=sig&u=${token}`])));
    const links = createAttachmentLinks(client, Date.now, () => token);
    expect(await links.resolve(A)).toBeNull();
    expect(request).not.toHaveBeenCalled();
    token = '7';
    expect(await links.resolve(A)).toBe(`${A}?e=9999999999&s=sig&u=7`);
    token = '8';
    expect(links.cached(A)).toBeUndefined();
    expect(await links.resolve(A)).toBe(`${A}?e=9999999999&s=sig&u=8`);
    expect(request).toHaveBeenCalledTimes(2);
  });
});
