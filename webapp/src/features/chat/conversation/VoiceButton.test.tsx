import { fireEvent, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../i18n';
import { toastAtom } from '../../../state/toast';
import { appStore } from '../../../state/store';
import { VoiceButton } from './VoiceButton';

class FakeRecorder {
  static isTypeSupported = () => true;
  state = 'inactive';
  mimeType = 'audio/webm';
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  onerror: (() => void) | null = null;
  start(): void {
    this.state = 'recording';
  }
  stop(): void {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['x'], { type: 'audio/webm' }) });
    this.onstop?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function setup() {
  const track = { stop: vi.fn() };
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn().mockResolvedValue({ getTracks: () => [track] }) },
  });
  HTMLElement.prototype.setPointerCapture = vi.fn();
  const onRecorded = vi.fn();
  render(
    <Provider store={createStore()}>
      <I18nextProvider i18n={createI18n('en-US')}>
        <VoiceButton onRecorded={onRecorded} />
      </I18nextProvider>
    </Provider>,
  );
  return { onRecorded, track, button: screen.getByRole('button', { name: 'Hold to talk' }) };
}

describe('VoiceButton', () => {
  it("refuses a recording under a second with 'recording too short'", async () => {
    const { onRecorded, track, button } = setup();
    fireEvent.pointerDown(button, { pointerId: 1, clientY: 500 });
    await screen.findByRole('button', { name: 'Release to send' });
    fireEvent.pointerUp(button, { pointerId: 1 });
    expect(onRecorded).not.toHaveBeenCalled();
    expect(appStore.get(toastAtom)?.text).toBe('Recording too short');
    expect(track.stop).toHaveBeenCalled();
  });

  it('sends a recording held long enough, with its length', async () => {
    const { onRecorded, button } = setup();
    const start = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(start);
    fireEvent.pointerDown(button, { pointerId: 1, clientY: 500 });
    await screen.findByRole('button', { name: 'Release to send' });
    vi.spyOn(Date, 'now').mockReturnValue(start + 2_500);
    fireEvent.pointerUp(button, { pointerId: 1 });
    expect(onRecorded).toHaveBeenCalledWith(expect.any(Blob), 2.5);
  });

  it('cancels when the finger slides up', async () => {
    const { onRecorded, button } = setup();
    fireEvent.pointerDown(button, { pointerId: 1, clientY: 500 });
    await screen.findByRole('button', { name: 'Release to send' });
    fireEvent.pointerMove(button, { pointerId: 1, clientY: 400 });
    expect(screen.getAllByText('Release to cancel').length).toBeGreaterThan(0);
    fireEvent.pointerUp(button, { pointerId: 1 });
    expect(onRecorded).not.toHaveBeenCalled();
  });
});
