import { act, render, screen } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showToast, TOAST_DURATION_MS } from '../../state/toast';
import { Toast } from './Toast';

afterEach(() => {
  vi.useRealTimers();
});

/** The toast on a fresh store, under fake timers; the store is where showToast writes. */
function renderToast() {
  vi.useFakeTimers();
  const store = createStore();
  render(
    <Provider store={store}>
      <Toast />
    </Provider>,
  );
  return store;
}

describe('Toast', () => {
  it('shows the latest message for 1500 ms', () => {
    const store = renderToast();
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
    const store = renderToast();
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
