import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chatSessionEndedAtom, chatSocket } from '../../../api/chat';
import { browserStore, STORAGE_KEYS } from '../../../api/storage';
import { appStore } from '../../../state/store';
import { toastAtom } from '../../../state/toast';
import { fakeServer, Refusal } from '../../../test/fakeServer';
import { ScriptedWebSocket } from '../../../test/fakeSocket';
import { alice, renderApp, signIn } from '../../../test/renderApp';

afterEach(() => {
  // The app's one socket, if a test signed it in: stopped with its timers.
  chatSocket.stop();
  vi.unstubAllGlobals();
});

const facts = {
  balance: 1234,
  pendingExchanges: 1,
  pendingAmount: 1000,
  cards: [{ id: '7', bankName: 'Bank of Test', cardNumber: '************4321' }],
  hasFundPassword: true,
  exchangeMin: 1000,
  exchangeMax: 500000,
  openBets: 0,
  pendingRecharges: 0,
  ownedGroups: 0,
  retentionDays: 1825,
};

describe('delete account', () => {
  it('asks the balance question first, sends the answer with the passwords, then signs out to the login page', async () => {
    signIn();
    const server = fakeServer({
      '/user/mine': () => alice,
      '/user/account/deletion': () => facts,
      '/user/account/delete': (body) =>
        body.password === 'abc123' ? null : new Refusal(1170, 'Wrong password'),
      '/logout': () => null,
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/setting/delete-account');
    // The wallet's 12.34 and the 10.00 under review.
    expect(await screen.findByText('Your account holds 22.34 points. What should happen to them?')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'abc123');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please choose what happens to your points');
    expect(server.callsTo('/user/account/delete')).toHaveLength(0);

    // Exchanging asks for a card and the fund password.
    await user.click(screen.getByRole('radio', { name: /Exchange them to my bank card/ }));
    expect(screen.getByRole('radio', { name: /Bank of Test/ })).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter the fund password');
    expect(server.callsTo('/user/account/delete')).toHaveLength(0);

    // Giving up needs the login password only; a wrong one is the server's to refuse.
    await user.click(screen.getByRole('radio', { name: /Give them up/ }));
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'nope12');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
    expect(server.callsTo('/user/account/delete')[0]?.body).toEqual({ password: 'nope12', balance: 'forfeit' });

    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Delete my account for good' })).toBeEnabled();
    });
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'abc123');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/auth/login');
    });
    expect(server.callsTo('/user/account/delete')[1]?.body).toEqual({ password: 'abc123', balance: 'forfeit' });
    // Signed out here too: nothing of the account is left on the device.
    expect(window.localStorage.getItem('access_token')).toBeNull();
  });

  it('waits while bets are open, and an account without money needs no answer', async () => {
    signIn();
    fakeServer({
      '/user/mine': () => alice,
      '/user/account/deletion': () => ({ ...facts, balance: 0, pendingExchanges: 0, pendingAmount: 0, openBets: 2 }),
    });
    renderApp('/pages/setting/delete-account');
    expect(await screen.findByText(/You have bets that are not settled yet/)).toBeInTheDocument();
    expect(screen.queryByRole('radio', { name: /Give them up/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete my account for good' })).toBeDisabled();
  });

  it('asks an owner of groups with other members to hand them over first', async () => {
    signIn();
    fakeServer({
      '/user/mine': () => alice,
      '/user/account/deletion': () => ({ ...facts, ownedGroups: 1 }),
    });
    renderApp('/pages/setting/delete-account');
    expect(await screen.findByText(/You own groups with other members/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete my account for good' })).toBeDisabled();
  });

  it('says the account was deleted, not that the chat sign-in expired, when the socket hears of the end first', async () => {
    // The app's socket over a scripted WebSocket, signed in with the stored chat token.
    const sockets: ScriptedWebSocket[] = [];
    vi.stubGlobal(
      'WebSocket',
      class extends ScriptedWebSocket {
        constructor(url: string) {
          super(url);
          sockets.push(this);
        }
      },
    );
    signIn();
    browserStore.set(STORAGE_KEYS.wsToken, 'W');
    const server = fakeServer({
      '/user/mine': () => alice,
      '/user/account/deletion': () => facts,
      // As the server does: it tells the account's sockets their token expired, then answers.
      '/user/account/delete': () => {
        sockets.at(-1)?.push('OnUserTokenExpired', null);
        return null;
      },
      '/logout': () => null,
    });
    const toasts: string[] = [];
    const off = appStore.sub(toastAtom, () => {
      const text = appStore.get(toastAtom)?.text;
      if (text) toasts.push(text);
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/setting/delete-account');
    await user.click(await screen.findByRole('radio', { name: /Give them up/ }));
    await user.type(screen.getByLabelText('Password'), 'abc123');
    await vi.waitFor(() => {
      expect(chatSocket.state).toBe('connected');
    });
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/auth/login');
    });
    // The sign-in page is up, and with it the shell's chat session, which would report an end it was told of.
    expect(await screen.findByLabelText('Account')).toBeInTheDocument();
    await waitFor(() => {
      expect(appStore.get(chatSessionEndedAtom)).toBeNull();
    });
    off();
    expect(toasts).toEqual(['Your account was deleted']);
    expect(screen.getByText('Your account was deleted')).toBeInTheDocument();
    expect(window.localStorage.getItem('wsToken')).toBeNull();
    // The server ended every session: a /logout would only be refused.
    expect(server.callsTo('/logout')).toHaveLength(0);
  });
});

