import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer, Refusal } from '../../../test/fakeServer';
import { alice, renderApp, signIn } from '../../../test/renderApp';

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
});
