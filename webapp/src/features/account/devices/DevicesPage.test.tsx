import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Device, DeviceList } from '../../../api/devices';
import { STORAGE_KEYS } from '../../../api/storage';
import { fakeServer, Refusal } from '../../../test/fakeServer';
import { alice, renderApp, signIn } from '../../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const phone: Device = { id: '385000000000000001', platform: 5, device: 'Safari · iOS', createdAt: Date.UTC(2026, 10, 28, 9, 30), current: true };
const laptop: Device = { id: '385000000000000002', platform: 5, device: 'Chrome · Windows', createdAt: Date.UTC(2026, 10, 27, 8, 0), current: false };
const app: Device = { id: '385000000000000003', platform: 2, device: '', createdAt: Date.UTC(2026, 10, 26, 8, 0), current: false };

describe('devices', () => {
  it('lists the sign-ins with this one marked and signs one other out', async () => {
    signIn('9');
    let list: DeviceList = { policy: 'devices', maxDevices: 5, devices: [phone, laptop, app] };
    const server = fakeServer({
      '/user/mine': () => alice,
      '/devices': () => list,
      '/devices/signOut': (body) => {
        list = { ...list, devices: list.devices.filter((d) => d.id !== body.id) };
        return null;
      },
    });
    const user = userEvent.setup();
    renderApp('/pages/setting/devices');
    const rows = within(await screen.findByRole('list', { name: 'Devices signed in' })).getAllByTestId('device-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveAttribute('aria-current', 'true');
    expect(rows[0]).toHaveTextContent('Safari · iOS');
    expect(rows[0]).toHaveTextContent('This device');
    // A sign-in without a known browser is named by its platform.
    expect(rows[2]).toHaveTextContent('Android');
    expect(screen.getByText(/Up to 5 devices can be signed in at once/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign out Chrome · Windows' }));
    await waitFor(() => {
      expect(screen.getAllByTestId('device-row')).toHaveLength(2);
    });
    expect(server.callsTo('/devices/signOut')[0]?.body).toMatchObject({ id: laptop.id });
    expect(await screen.findByText('Chrome · Windows signed out')).toBeInTheDocument();
    // This device stays signed in.
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('T');
  });

  it('signs out all the others after a confirmation, and shows a refusal', async () => {
    signIn('9');
    let list: DeviceList = { policy: 'platform', maxDevices: 0, devices: [phone, app] };
    let refuse = true;
    const server = fakeServer({
      '/user/mine': () => alice,
      '/devices': () => list,
      '/devices/signOutOthers': () => {
        if (refuse) return new Refusal(1009, 'System busy, try again');
        list = { ...list, devices: [phone] };
        return { signedOut: 1 };
      },
    });
    const user = userEvent.setup();
    renderApp('/pages/setting/devices');
    expect(await screen.findByText(/One sign-in per kind of device/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign out all other devices' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out all other devices?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign them out' }));
    expect(await screen.findByText('System busy, try again')).toBeInTheDocument();
    expect(screen.getAllByTestId('device-row')).toHaveLength(2);

    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Sign out all other devices' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign them out' }));
    expect(await screen.findByText('1 device signed out')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.getAllByTestId('device-row')).toHaveLength(1);
    });
    expect(screen.getByRole('button', { name: 'Sign out all other devices' })).toBeDisabled();
    expect(server.callsTo('/devices/signOutOthers')).toHaveLength(2);
  });

  it('signing out this device signs out here and opens the sign-in page', async () => {
    signIn('9');
    const server = fakeServer({
      '/user/mine': () => alice,
      '/devices': () => ({ policy: 'devices', maxDevices: 5, devices: [phone, laptop] }),
      '/logout': () => null,
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/setting/devices');
    await user.click(await screen.findByRole('button', { name: 'Sign out this device' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/pages/auth/login');
    });
    expect(server.callsTo('/logout')).toHaveLength(1);
    expect(server.callsTo('/devices/signOut')).toHaveLength(0);
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});
