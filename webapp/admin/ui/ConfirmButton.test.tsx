import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../i18n';
import { ConfirmButton } from './kit';

describe('ConfirmButton', () => {
  it('asks before acting, requires the reason, and keeps the dialog open with the server refusal', async () => {
    setLanguage('en-US');
    const user = userEvent.setup();
    const onConfirm = vi.fn().mockRejectedValueOnce(new Error('network down')).mockResolvedValueOnce(undefined);
    render(<ConfirmButton label="Fail" options={{ title: 'Fail the order', reason: true, onConfirm }} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Fail' }));
    const dialog = screen.getByRole('dialog', { name: 'Fail the order' });
    await user.click(screen.getByTestId('confirm-ok'));
    expect(screen.getByRole('alert')).toHaveTextContent('Give a reason');
    expect(onConfirm).not.toHaveBeenCalled();
    await user.type(screen.getByRole('textbox'), 'wrong card');
    await user.click(screen.getByTestId('confirm-ok'));
    expect(onConfirm).toHaveBeenCalledWith('wrong card');
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('That did not work, try again');
    await user.click(screen.getByTestId('confirm-ok'));
    expect(onConfirm).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
