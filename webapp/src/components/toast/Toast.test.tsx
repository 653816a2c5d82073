import { act, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showToast, TOAST_DURATION_MS } from '../../state/toast';
import { Toast } from './Toast';

afterEach(() => {
  vi.useRealTimers();
});

describe('Toast', () => {
  it('shows the latest message for 1500 ms', () => {
    vi.useFakeTimers();
    const store = createStore();
    render(
      <Provider store={store}>
        <Toast />
      </Provider>,
    );
    act(() => {
      showToast('Saved', store);
    });
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    act(() => {
      vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
    });
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('restarts the timer for a new message', () => {
    vi.useFakeTimers();
    const store = createStore();
    render(
      <Provider store={store}>
        <Toast />
      </Provider>,
    );
    act(() => {
      showToast('First', store);
    });
    act(() => {
      vi.advanceTimersByTime(1000);
      showToast('Second', store);
    });
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole('status')).toHaveTextContent('Second');
  });
});
