/**
 * The signed-in user's devices (httpapi/devices.go): every live sign-in of the account, with
 * "sign out this device" and "sign out all others".
 */
import { api } from './client';

export interface Device {
  /** The sign-in's id (64-bit, as text). */
  id: string;
  /** OpenIM platform id: 1 iOS, 2 Android, 3 Windows, 4 macOS, 5 web, 7 Linux, 8 Android tablet, 9 iPad. */
  platform: number;
  /** Browser and system from the sign-in's User-Agent ("Chrome · Windows"); empty when unknown. */
  device: string;
  /** Sign-in time, unix ms. */
  createdAt: number;
  /** The sign-in this app is using. */
  current: boolean;
}

export interface DeviceList {
  /** KJ_LOGIN_POLICY: one sign-in per platform, or several devices. */
  policy: 'platform' | 'devices';
  /** The most sign-ins kept under the devices policy; 0 under the platform policy. */
  maxDevices: number;
  /** Newest first. */
  devices: Device[];
}

export const devicesApi = {
  list: () => api.request<DeviceList>('/devices'),
  signOut: (id: string) => api.request<null>('/devices/signOut', { id }, { quiet: true }),
  signOutOthers: () => api.request<{ signedOut: number }>('/devices/signOutOthers', {}, { quiet: true }),
};
