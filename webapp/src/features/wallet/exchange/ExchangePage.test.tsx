import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, Refusal } from '../../../test/fakeServer';
import { alice, renderApp, signIn, wallet } from '../../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const card = { id: '5', bankId: '11', bankName: 'Bank of Test', holderName: 'Alice', cardNumber: '***************3445', createdAt: 1 };

describe('exchange', () => {
  it("without a card says 'You have not bound a bank card' and links to binding one", async () => {
    signIn();
    fakeServer({ '/user/mine': () => alice, '/user/getUserAmount': () => wallet, '/user/userBankList': () => ({ list: [] }) });
    renderApp('/pages/my/exchange');
    expect(await screen.findByRole('heading', { name: 'You have not bound a bank card' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Bind a bank card' })).toHaveAttribute(
      'href',
      `/pages/setting/add-bank?redirect=${encodeURIComponent('/pages/my/exchange')}`,
    );
  });

  it('checks the limits, sends amount in cents with a fresh idempotency key per attempt, and shows refusals', async () => {
    signIn();
    const server = fakeServer({
      '/user/mine': () => alice,
      '/user/getUserAmount': () => ({ ...wallet, amount: 500 }),
      '/user/userBankList': () => ({ list: [card] }),
      '/user/exchange': () => new Refusal(1200, 'Insufficient balance'),
    });
    const user = userEvent.setup();
    renderApp('/pages/my/exchange');
    expect(await screen.findByTestId('exchange-balance')).toHaveTextContent('5.00');
    const amount = screen.getByLabelText('Amount');
    await user.type(amount, '5');
    await user.type(screen.getByLabelText('Fund password'), '135790');
    await user.click(screen.getByRole('button', { name: 'Exchange' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The minimum exchange is 10.00');
    await user.clear(amount);
    await user.type(amount, '12.345');
    // Kept as typed and refused with the reason, never cut to 12.34.
    expect(amount).toHaveValue('12.345');
    await user.click(screen.getByRole('button', { name: 'Exchange' }));
    expect(screen.getByRole('alert')).toHaveTextContent('An amount has at most two decimals');
    expect(server.callsTo('/user/exchange')).toHaveLength(0);
    await user.clear(amount);
    await user.type(amount, '12.34');
    await user.click(screen.getByRole('button', { name: 'Exchange' }));
    expect(await screen.findByText('Insufficient balance')).toBeInTheDocument();
    const first = server.callsTo('/user/exchange')[0];
    expect(first?.body).toEqual({ amount: 1234, bankCardId: '5', fundPassword: '135790' });
    expect(first?.headers['Idempotency-Key']).toMatch(/^ex-/);

    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Exchange' })).toBeEnabled();
    });
    await user.click(screen.getByRole('button', { name: 'Exchange' }));
    await waitFor(() => {
      expect(server.callsTo('/user/exchange')).toHaveLength(2);
    });
    // The first request was answered, so the second one is a new exchange.
    expect(server.callsTo('/user/exchange')[1]?.headers['Idempotency-Key']).not.toBe(first?.headers['Idempotency-Key']);
  });

  it('an accepted exchange goes to the exchange records', async () => {
    // The records list is virtualised: give it a size to lay rows out in.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(100);
    signIn();
    const server = fakeServer({
      '/user/mine': () => alice,
      '/user/getUserAmount': () => ({ ...wallet, amount: 500000 }),
      '/user/userBankList': () => ({ list: [card] }),
      '/user/exchange': () => ({ id: '1', orderNo: 'E1', amount: 2000, status: 0, remark: '', createdAt: 1, reviewTime: 0 }),
      '/user/userExchangeRecode': () => ({
        list: [{ id: '1', orderNo: 'E1', amount: 2000, status: 0, remark: '', createdAt: Date.now(), reviewTime: 0, bankName: 'Bank of Test', cardNumber: '***3445' }],
        total: 1,
        page: 1,
        pageSize: 20,
      }),
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/my/exchange');
    await user.type(await screen.findByLabelText('Amount'), '20');
    await user.type(screen.getByLabelText('Fund password'), '135790');
    await user.click(screen.getByRole('button', { name: 'Exchange' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/my/exchange-record');
    });
    expect(await screen.findByText('Order E1')).toBeInTheDocument();
    expect(screen.getByText('Under review', { selector: '[data-testid="record-state"]' })).toBeInTheDocument();
    expect(server.callsTo('/user/userExchangeRecode')[0]?.body).toEqual({ tab: 'all', days: 0, page: 1, pageSize: 20 });
  });
});
