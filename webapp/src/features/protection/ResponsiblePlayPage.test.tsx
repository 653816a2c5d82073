import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Limit, ProtectionStatus } from '../../api/protection';
import { fakeServer, Refusal } from '../../test/fakeServer';
import { alice, renderApp, signIn } from '../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const limit = (kind: Limit['kind'], period: Limit['period'], amount = 0): Limit => ({
  kind,
  period,
  amount,
  pending: false,
  nextAmount: 0,
  nextAt: 0,
  used: 0,
  resetsAt: Date.UTC(2026, 2, 2),
});

const status = (over: Partial<ProtectionStatus> = {}): ProtectionStatus => ({
  limits: (['deposit', 'loss'] as const).flatMap((k) => (['day', 'week', 'month'] as const).map((p) => limit(k, p))),
  exclusion: null,
  realityMinutes: 0,
  todayNet: 0,
  sinceNet: 0,
  now: Date.UTC(2026, 2, 1, 10),
  ...over,
});

describe('responsible play', () => {
  it('saves a limit in cents, says a raise waits, and refuses a typed amount it cannot read without asking', async () => {
    signIn();
    let current = status();
    const server = fakeServer({
      '/user/mine': () => alice,
      '/protection/status': () => current,
      '/protection/limit': (body) => {
        const l = { ...limit(body.kind as Limit['kind'], body.period as Limit['period'], 1000), pending: true, nextAmount: body.amount as number, nextAt: Date.UTC(2026, 2, 2, 10) };
        current = status({ limits: current.limits.map((x) => (x.kind === l.kind && x.period === l.period ? l : x)) });
        return l;
      },
    });
    const user = userEvent.setup();
    renderApp('/pages/setting/responsible-play');
    const amount = await screen.findByLabelText('Amount in points (0: no limit)');
    await user.type(amount, '12.345');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    expect(await screen.findByText('at most two decimals', { exact: false })).toBeInTheDocument();
    expect(server.callsTo('/protection/limit')).toHaveLength(0);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'week');
    await user.clear(amount);
    await user.type(amount, '25.5');
    await user.click(screen.getByRole('button', { name: 'Save limit' }));
    await waitFor(() => {
      expect(server.callsTo('/protection/limit')).toHaveLength(1);
    });
    expect(server.callsTo('/protection/limit')[0]?.body).toEqual({ kind: 'loss', period: 'week', amount: 2550 });
    expect(await screen.findByText('Saved: the higher limit takes effect in 24 hours')).toBeInTheDocument();
    expect(await screen.findByTestId('limit-pending')).toHaveTextContent('Rises to 25.50');
  });

  it('asks before a self-exclusion, shows it in force, and shows the server refusal of a shorter one', async () => {
    signIn();
    let current = status();
    const server = fakeServer({
      '/user/mine': () => alice,
      '/protection/status': () => current,
      '/protection/exclude': () => {
        if (current.exclusion) return new Refusal(1604, 'You are already stopped permanently');
        current = status({ exclusion: { kind: 'selfexclusion', startsAt: 1, endsAt: 0 } });
        return current.exclusion;
      },
    });
    const user = userEvent.setup();
    renderApp('/pages/setting/responsible-play');
    await user.click(await screen.findByRole('checkbox', { name: 'Permanent' }));
    const starts = screen.getAllByRole('button', { name: 'Start' });
    await user.click(starts[1]!);
    const dialog = await screen.findByRole('dialog', { name: 'Stop playing?' });
    expect(dialog).toHaveTextContent('Bets and recharges stop at once, permanently. You cannot undo this.');
    expect(server.callsTo('/protection/exclude')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByTestId('exclusion-active')).toHaveTextContent('Self-excluded permanently');
    expect(server.callsTo('/protection/exclude')[0]?.body).toEqual({ kind: 'selfexclusion', permanent: true });

    await user.type(screen.getByLabelText('Cool-off (1 to 42 days)'), '50');
    await user.click(screen.getAllByRole('button', { name: 'Start' })[0]!);
    expect(await screen.findByText('Enter 1 to 42 days')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Cool-off (1 to 42 days)'));
    await user.type(screen.getByLabelText('Cool-off (1 to 42 days)'), '3');
    await user.click(screen.getAllByRole('button', { name: 'Start' })[0]!);
    await user.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('You are already stopped permanently')).toBeInTheDocument();
  });
});
