import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, Refusal } from '../../../test/fakeServer';
import { alice, renderApp, signIn, wallet } from '../../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const banks = { list: [{ id: '11', name: 'Bank of Test', country: 'CN', sort: 1, enabled: 1 }] };

async function fillCard(user: ReturnType<typeof userEvent.setup>, confirm: string) {
  await user.type(await screen.findByLabelText('Cardholder'), 'Alice Wong');
  await user.selectOptions(screen.getByLabelText('Bank'), '11');
  await user.type(screen.getByLabelText('Card number'), '6222020200112233445');
  await user.type(screen.getByLabelText('Confirm card number'), confirm);
  await user.type(screen.getByLabelText('Fund password'), '135790');
}

describe('add bank card', () => {
  it("refuses different numbers with 'Bank card numbers do not match', then binds after a confirmation", async () => {
    signIn();
    const server = fakeServer({
      '/user/mine': () => alice,
      '/user/getUserAmount': () => wallet,
      '/user/getBankList': () => banks,
      '/user/setBankCard': () => ({ id: '5', bankId: '11', bankName: 'Bank of Test', holderName: 'Alice Wong', cardNumber: '***3445', createdAt: 1 }),
      '/user/userBankList': () => ({ list: [] }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/setting/add-bank?redirect=%2Fpages%2Fmy%2Fexchange');
    await fillCard(user, '6222020200112233449');
    await user.click(screen.getByRole('button', { name: 'Bind card' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Bank card numbers do not match');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Confirm card number'));
    await user.type(screen.getByLabelText('Confirm card number'), '6222 0202 0011 2233 445');
    await user.click(screen.getByRole('button', { name: 'Bind card' }));
    const dialog = screen.getByRole('dialog', { name: 'Bind this card?' });
    expect(dialog).toHaveTextContent('Card number: 6222 0202 0011 2233 445');
    expect(dialog).toHaveTextContent('Bank: Bank of Test');
    expect(server.callsTo('/user/setBankCard')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/my/exchange');
    });
    expect(server.callsTo('/user/setBankCard')[0]?.body).toEqual({
      name: 'Alice Wong',
      bank: '11',
      cardNumber: '6222020200112233445',
      confirmCardNumber: '6222020200112233445',
      fundPassword: '135790',
    });
  });

  it("shows the server's refusal after the confirmation", async () => {
    signIn();
    fakeServer({
      '/user/mine': () => alice,
      '/user/getUserAmount': () => wallet,
      '/user/getBankList': () => banks,
      '/user/setBankCard': () => new Refusal(1211, 'Wrong fund password, 4 attempts left'),
    });
    const user = userEvent.setup();
    renderApp('/pages/setting/add-bank');
    await fillCard(user, '6222020200112233445');
    await user.click(screen.getByRole('button', { name: 'Bind card' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Wrong fund password, 4 attempts left')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks for a fund password first when there is none', async () => {
    signIn();
    fakeServer({
      '/user/mine': () => ({ ...alice, hasFundPassword: false }),
      '/user/getUserAmount': () => ({ ...wallet, hasFundPassword: false }),
      '/user/getBankList': () => banks,
    });
    renderApp('/pages/setting/add-bank');
    const link = await screen.findByRole('link', { name: 'Set fund password' });
    expect(link).toHaveAttribute('href', `/pages/setting/fund-password?redirect=${encodeURIComponent('/pages/setting/add-bank')}`);
  });
});

describe('add bank card without a fund password', () => {
  it('sets the fund password on the way and comes back to the card form, not to "change fund password"', async () => {
    signIn();
    let has = false;
    fakeServer({
      '/user/mine': () => ({ ...alice, hasFundPassword: has }),
      '/user/getUserAmount': () => ({ ...wallet, hasFundPassword: has }),
      '/user/getBankList': () => banks,
      '/user/userBankList': () => ({ list: [] }),
      '/user/setWalletPwd': () => {
        has = true;
        return null;
      },
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/setting/add-bank');
    await user.click(await screen.findByRole('link', { name: 'Set fund password' }));
    await user.type(await screen.findByLabelText('New fund password'), '135790');
    await user.type(screen.getByLabelText('Confirm fund password'), '135790');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/setting/add-bank');
    });
    expect(await screen.findByLabelText('Cardholder')).toBeInTheDocument();
    expect(screen.queryByLabelText('Old fund password')).not.toBeInTheDocument();
  });
});
