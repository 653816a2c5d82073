import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Round } from '../../api/rounds';
import { AppProviders } from '../../app/AppProviders';
import { createI18n } from '../../i18n';
import { envelope, stubApi } from '../../test/routeStub';
import { BetPanel } from './BetPanel';

const round: Round = {
  windowId: 1,
  issue: '20260301000100042',
  phase: 'betting',
  deadline: 0,
  startsAt: 0,
  bettingEndsAt: 0,
  drawingEndsAt: 0,
  restEndsAt: 0,
  seedHash: 'h',
  odds: '1.98',
  oddsBp: 19800,
  minBet: 500,
  maxBet: 5000,
  ordersCount: 0,
  totalPoints: 0,
};

function renderPanel(props: { open?: boolean; balance?: number | null } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <AppProviders i18n={createI18n('en-US')} store={createStore()} queryClient={client}>
      <BetPanel round={round} open={props.open ?? true} balance={props.balance === undefined ? 2000 : props.balance} />
    </AppProviders>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const submit = () => screen.getByRole('button', { name: 'Bet' });
const alert = () => screen.getByRole('alert');

describe('BetPanel', () => {
  it('checks content, amount, limits and balance before sending anything', async () => {
    const api = stubApi({});
    const user = userEvent.setup();
    renderPanel();
    await user.click(submit());
    expect(alert()).toHaveTextContent('Choose Big, Small, Single or Double');

    await user.click(screen.getByRole('radio', { name: /Big/ }));
    expect(screen.getByRole('radio', { name: /Big/ })).toHaveAttribute('aria-checked', 'true');
    const input = screen.getByRole('textbox', { name: 'Amount' });
    // Kept as typed and refused with the reason, never read as "2".
    await user.type(input, '0a0b2');
    expect(input).toHaveValue('0a0b2');
    // Taps closer than the panel's 500 ms throttle are dropped, as below.
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    expect(alert()).toHaveTextContent('Enter the amount in digits');
    await user.clear(input);
    await user.type(input, '12.345');
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    expect(alert()).toHaveTextContent('An amount has at most two decimals');

    await user.clear(input);
    await user.type(input, '4.99');
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    expect(alert()).toHaveTextContent('The minimum bet is 5.00');

    await user.clear(input);
    await user.type(input, '50.01');
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    expect(alert()).toHaveTextContent('The maximum bet is 50.00');

    await user.clear(input);
    await user.type(input, '30');
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    expect(alert()).toHaveTextContent('Insufficient balance');
    expect(api.calls).toHaveLength(0);
  }, 20_000);

  it('sends the bet in cents with a bet id, and shows the server refusal', async () => {
    let answer: unknown = envelope(1403, 'Betting for round 20260301000100042 has closed');
    const api = stubApi({ '/activation/betRequest': () => answer });
    const user = userEvent.setup();
    renderPanel();
    await user.click(screen.getByRole('radio', { name: /Double/ }));
    await user.click(screen.getByRole('button', { name: '10' }));
    await user.click(submit());
    await waitFor(() => {
      expect(alert()).toHaveTextContent('Betting for round 20260301000100042 has closed');
    });
    const first = api.called('/activation/betRequest')[0]!;
    expect(first.body).toMatchObject({ windowId: 1, issue: '20260301000100042', content: 'DOUBLE', amount: 1000 });
    expect(String(first.body.betId)).toMatch(/^[A-Za-z0-9._:-]{1,64}$/);

    answer = { ...first.body, noteNo: '1', matched: false, result: '', payout: 0, placedAt: 1, settledAt: 0 };
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    await waitFor(() => {
      expect(api.called('/activation/betRequest')).toHaveLength(2);
    });
    // A refusal is final: the next try is a new bet with a new id.
    expect(api.called('/activation/betRequest')[1]!.body.betId).not.toBe(first.body.betId);
    // The amount stays the player's choice, and the bet is remembered on this device.
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Repeat last bet: Double 10.00 points' })).toBeInTheDocument();
    });
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveValue('10');
    expect(JSON.parse(localStorage.getItem('kj.rounds.lastBet') ?? 'null')).toEqual({ content: 'DOUBLE', cents: 1000 });
  }, 20_000);

  it('repeats the last bet with one tap, starting from the remembered amount', async () => {
    localStorage.setItem('kj.rounds.lastBet', JSON.stringify({ content: 'BIG', cents: 1250 }));
    const api = stubApi({
      '/activation/betRequest': (body: Record<string, unknown>) => ({ ...body, noteNo: '7', matched: false, result: '', payout: 0, placedAt: 1, settledAt: 0 }),
    });
    const user = userEvent.setup();
    renderPanel();
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveValue('12.5');
    await user.click(screen.getByRole('button', { name: 'Repeat last bet: Big 12.50 points' }));
    await waitFor(() => {
      expect(api.called('/activation/betRequest')).toHaveLength(1);
    });
    expect(api.called('/activation/betRequest')[0]!.body).toMatchObject({ content: 'BIG', amount: 1250, issue: round.issue });
    expect(screen.getByRole('radio', { name: /Big/ })).toHaveAttribute('aria-checked', 'true');
  }, 20_000);

  it('asks before a bet above the threshold the player set, and sends nothing on cancel', async () => {
    const api = stubApi({
      '/activation/betRequest': (body: Record<string, unknown>) => ({ ...body, noteNo: '8', matched: false, result: '', payout: 0, placedAt: 1, settledAt: 0 }),
    });
    const user = userEvent.setup();
    renderPanel();
    await user.type(screen.getByRole('textbox', { name: 'Ask me before bets above (points)' }), '15.5');
    expect(JSON.parse(localStorage.getItem('kj.rounds.confirmAbove') ?? 'null')).toEqual({ cents: 1550 });
    await user.click(screen.getByRole('radio', { name: /Small/ }));
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '15.51');
    await user.click(submit());
    expect(await screen.findByRole('dialog', { name: 'Confirm the bet' })).toHaveTextContent('Bet 15.51 on Small in issue 20260301000100042?');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.calls).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the bet' });
    await user.click(within(dialog).getByRole('button', { name: 'Bet' }));
    await waitFor(() => {
      expect(api.called('/activation/betRequest')).toHaveLength(1);
    });
    expect(api.called('/activation/betRequest')[0]!.body).toMatchObject({ content: 'SMALL', amount: 1551 });
  }, 20_000);

  it('sends a slip of several selections after one confirmation with each and the total, and repeats it whole', async () => {
    let answer: unknown = envelope(1200, 'Insufficient balance');
    const slipOf = (body: Record<string, unknown>) => {
      const selections = body.selections as { content: string; amount: number }[];
      return {
        slipId: body.slipId,
        total: selections.reduce((sum, s) => sum + s.amount, 0),
        bets: selections.map((s, n) => ({ ...s, betId: `${String(body.slipId)}.${n + 1}`, windowId: 1, issue: body.issue, noteNo: String(n), matched: false, result: '', payout: 0, placedAt: 1, settledAt: 0 })),
      };
    };
    const api = stubApi({ '/activation/betSlip': (body: Record<string, unknown>) => (answer === null ? slipOf(body) : answer) });
    const user = userEvent.setup();
    renderPanel({ balance: 3000 });
    await user.click(screen.getByRole('checkbox', { name: 'Bet slip: several selections' }));
    await user.click(screen.getByRole('checkbox', { name: /Single/ }));
    await user.click(screen.getByRole('checkbox', { name: /Big/ }));
    expect(screen.getByRole('checkbox', { name: /Big/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('checkbox', { name: /Single/ })).toHaveAttribute('aria-checked', 'true');
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '20');
    expect(screen.getByText('2 selections, total 40.00')).toBeInTheDocument();
    // The total, not each selection, is held against the balance: nothing is sent.
    await user.click(submit());
    expect(alert()).toHaveTextContent('Insufficient balance');
    expect(api.calls).toHaveLength(0);

    await user.clear(screen.getByRole('textbox', { name: 'Amount' }));
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '10');
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    let dialog = await screen.findByRole('dialog', { name: 'Confirm the bet slip' });
    expect(dialog).toHaveTextContent('Issue 20260301000100042, accepted or refused together:');
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Big10.00', 'Single10.00']);
    expect(dialog).toHaveTextContent('Total 20.00');
    await user.click(within(dialog).getByRole('button', { name: 'Bet' }));
    await waitFor(() => {
      expect(alert()).toHaveTextContent('Insufficient balance');
    });
    const first = api.called('/activation/betSlip')[0]!;
    expect(first.body).toMatchObject({ windowId: 1, issue: round.issue, selections: [{ content: 'BIG', amount: 1000 }, { content: 'SINGLE', amount: 1000 }] });
    expect(String(first.body.slipId)).toMatch(/^[A-Za-z0-9._:-]{1,62}$/);
    expect(api.called('/activation/betRequest')).toHaveLength(0);

    answer = null;
    await new Promise((r) => setTimeout(r, 520));
    await user.click(submit());
    dialog = await screen.findByRole('dialog', { name: 'Confirm the bet slip' });
    await user.click(within(dialog).getByRole('button', { name: 'Bet' }));
    await waitFor(() => {
      expect(api.called('/activation/betSlip')).toHaveLength(2);
    });
    // A refusal is final: the next try is a new slip id.
    expect(api.called('/activation/betSlip')[1]!.body.slipId).not.toBe(first.body.slipId);
    const repeat = await screen.findByRole('button', { name: 'Repeat last slip: Big + Single, total 20.00 points' });
    expect(JSON.parse(localStorage.getItem('kj.rounds.lastBet') ?? 'null')).toEqual({
      selections: [{ content: 'BIG', cents: 1000 }, { content: 'SINGLE', cents: 1000 }],
    });

    await new Promise((r) => setTimeout(r, 520));
    await user.click(repeat);
    dialog = await screen.findByRole('dialog', { name: 'Confirm the bet slip' });
    expect(dialog).toHaveTextContent('Total 20.00');
    await user.click(within(dialog).getByRole('button', { name: 'Bet' }));
    await waitFor(() => {
      expect(api.called('/activation/betSlip')).toHaveLength(3);
    });
    expect(api.called('/activation/betSlip')[2]!.body).toMatchObject({ selections: [{ content: 'BIG', amount: 1000 }, { content: 'SINGLE', amount: 1000 }] });
  }, 20_000);

  it('is disabled outside the betting phase', () => {
    stubApi({});
    renderPanel({ open: false });
    expect(screen.getByRole('button', { name: 'Betting closed' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Big/ })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Amount' })).toBeDisabled();
  });
});
