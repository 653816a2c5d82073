import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n';
import { SmsCodeButton } from './SmsCodeButton';

afterEach(() => {
  vi.useRealTimers();
});

function renderButton(onSend: () => Promise<number>, canSend?: () => boolean) {
  render(
    <I18nextProvider i18n={createI18n('en-US')}>
      <SmsCodeButton onSend={onSend} canSend={canSend} />
    </I18nextProvider>,
  );
  return screen.getByRole('button');
}

describe('SmsCodeButton', () => {
  it('goes ready → getting → counting down → resend', async () => {
    vi.useFakeTimers();
    let answer: (seconds: number) => void = () => undefined;
    const onSend = vi.fn(() => new Promise<number>((resolve) => (answer = resolve)));
    const button = renderButton(onSend);
    expect(button).toHaveTextContent('Get code');

    fireEvent.click(button);
    expect(button).toHaveTextContent('Sending…');
    expect(button).toBeDisabled();
    await act(async () => {
      answer(3);
      await Promise.resolve();
    });
    expect(button).toHaveTextContent('3 s');
    fireEvent.click(button);
    expect(onSend).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(button).toHaveTextContent('2 s');
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(button).toHaveTextContent('Resend');
    expect(button).toBeEnabled();
  });

  it('returns to ready when sending fails, and never sends when the form says no', async () => {
    const onSend = vi.fn(() => Promise.reject(new Error('too often')));
    const button = renderButton(onSend);
    fireEvent.click(button);
    await act(async () => {
      await Promise.resolve();
    });
    expect(button).toHaveTextContent('Get code');

    const blocked = vi.fn(() => Promise.resolve(60));
    render(
      <I18nextProvider i18n={createI18n('en-US')}>
        <SmsCodeButton onSend={blocked} canSend={() => false} />
      </I18nextProvider>,
    );
    fireEvent.click(screen.getAllByRole('button')[1]!);
    expect(blocked).not.toHaveBeenCalled();
  });
});
