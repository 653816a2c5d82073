import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, stubApi } from '../../test/routeStub';
import { renderScreen } from '../../test/renderApp';
import { WatchVideoPage } from './WatchVideoPage';

const video = { id: '11', kind: 'find', title: 'Sunrise', cover: '/c.png', duration: 5, chatUserId: '0', createdAt: 1 };
const page = (list: unknown[]) => ({ list, total: list.length, page: 1, pageSize: 10, pages: 1 });

function renderPage() {
  renderScreen('/pages/find/watch-video', WatchVideoPage);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('WatchVideoPage', () => {
  it('plays a counted view, then shows the limit with the way to customer service', async () => {
    let remaining = 1;
    const api = stubApi({
      '/register/config': { captchaRequired: false, inviteCodeRequired: false },
      '/getFindVideo': page([video]),
      '/user/checkVideoCount': (body) => {
        if (!body.videoId) return { isActivation: 0, unlimited: false, limit: 1, used: 1 - remaining, remaining, counted: false, video: null };
        if (remaining === 0) return envelope(1501, 'You have used your 1 free videos today');
        remaining -= 1;
        return { isActivation: 0, unlimited: false, limit: 1, used: 1, remaining: 0, counted: true, video: { ...video, url: '/v.mp4' } };
      },
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('1 of 1 free videos left today', {}, { timeout: 5_000 })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /Sunrise/ }));
    const player = await screen.findByRole('dialog', { name: 'Sunrise' });
    expect(player.querySelector('video')).toHaveAttribute('src', '/v.mp4');
    expect(api.called('/user/checkVideoCount').at(-1)!.body).toEqual({ videoId: '11' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.getByText('0 of 1 free videos left today')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Sunrise/ }));
    const notice = await screen.findByText('You have used your 1 free videos today');
    expect(notice.closest('[role="alert"]')).toHaveTextContent("Today's free videos are used up");
    const link = screen.getByRole('link', { name: 'Contact customer service' });
    expect(link.getAttribute('href')).toMatch(/^\/pages\/customer\/customer\?draft=/);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks for an invitation code first when registration requires one', async () => {
    let bound = false;
    const api = stubApi({
      '/register/config': { captchaRequired: false, inviteCodeRequired: true },
      '/user/index': () => ({ userId: '1', username: 'a', nickName: 'a', isActivation: 0, customerId: '2', inviteCode: 'pro_me', superiorBound: bound }),
      '/user/bindProUser': () => {
        bound = true;
        return { superiorId: '5' };
      },
      '/getFindVideo': page([video]),
      '/user/checkVideoCount': { isActivation: 1, unlimited: true, limit: 3, used: 0, remaining: 3, counted: false, video: null },
    });
    const user = userEvent.setup();
    renderPage();
    const field = await screen.findByRole('textbox', { name: 'Invitation code' });
    await user.type(field, 'abc');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Invitation codes start with pro_');
    expect(api.called('/user/bindProUser')).toHaveLength(0);
    await user.clear(field);
    await user.type(field, 'pro_m2ihqsno');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => {
      expect(api.called('/user/bindProUser')[0]?.body).toEqual({ inviteCode: 'pro_m2ihqsno' });
    });
    expect(await screen.findByText('Unlimited viewing as a member')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Sunrise/ })).toBeInTheDocument();
  });
});
