import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../../api/storage';
import { fakeServer, Refusal } from '../../../test/fakeServer';
import { alice, renderApp, submitSignIn } from '../../../test/renderApp';

afterEach(() => {
  vi.unstubAllGlobals();
});

const noCaptcha = {
  '/getVerifyType': () => ({ register: 'none', login: 'none', forget: 'sms', setPhone: 'none' }),
  '/register/config': () => ({ captchaRequired: false, inviteCodeRequired: false, required: ['account', 'password'] }),
};

async function fill(user: ReturnType<typeof userEvent.setup>, account: string, password: string, confirm = password) {
  await user.type(await screen.findByLabelText('Account'), account);
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), confirm);
}

describe('register tab', () => {
  it('opens on an invitation link with the code, registers and signs in', async () => {
    const server = fakeServer({
      ...noCaptcha,
      '/register': () => ({ userId: '9', account: 'alice', inviteCode: 'pro_alice123' }),
      '/accountLogin': () => ({ token: 'T', jwt: 'J', chatToken: 'C', userId: '9' }),
      '/user/mine': () => alice,
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/auth/login?inviteCode=pro_boss0001');
    expect(await screen.findByRole('tab', { name: 'Register' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Invitation code (optional)')).toHaveValue('pro_boss0001');

    await fill(user, 'alice', 'abc123', 'abc124');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Two passwords are inconsistent');
    expect(server.callsTo('/register')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'abc123');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(server.callsTo('/register')[0]?.body).toEqual({
      account: 'alice',
      password: 'abc123',
      confirmPassword: 'abc123',
      inviteCode: 'pro_boss0001',
    });
    expect(server.callsTo('/accountLogin')[0]?.body).toMatchObject({ account: 'alice', password: 'abc123' });
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('T');
  });

  it('prefills the stored superior and refuses a code without pro_', async () => {
    window.localStorage.setItem(STORAGE_KEYS.superior, 'pro_stored01');
    fakeServer(noCaptcha);
    const user = userEvent.setup();
    renderApp('/pages/auth/login?mode=register');
    const invite = await screen.findByLabelText('Invitation code (optional)');
    expect(invite).toHaveValue('pro_stored01');
    await user.clear(invite);
    await user.type(invite, 'boss');
    await fill(user, 'alice', 'abc123');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Invitation codes start with pro_');
  });

  it('asks for the image captcha when the server wants one, and takes a new one after a refusal', async () => {
    let captchas = 0;
    const server = fakeServer({
      '/getVerifyType': () => ({ register: 'captcha', login: 'none', forget: 'sms', setPhone: 'none' }),
      '/register/config': () => ({ captchaRequired: true, inviteCodeRequired: false, required: [] }),
      '/getCaptcha': () => {
        captchas += 1;
        return { captchaId: `c${captchas}`, image: 'data:image/png;base64,AAAA', length: 5, expiresIn: 300 };
      },
      '/register': () => new Refusal(1114, 'The captcha is wrong or has expired, please get a new one'),
    });
    const user = userEvent.setup();
    renderApp('/pages/auth/login?mode=register');
    await fill(user, 'alice', 'abc123');
    expect(await screen.findByRole('img', { name: 'Captcha picture' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter the captcha');
    await user.type(screen.getByLabelText('Captcha'), '12345');
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('The captcha is wrong or has expired, please get a new one')).toBeInTheDocument();
    expect(server.callsTo('/register')[0]?.body).toMatchObject({ captchaId: 'c1', captchaCode: '12345' });
    await waitFor(() => {
      expect(captchas).toBe(2);
    });
    expect(screen.getByLabelText('Captcha')).toHaveValue('');
  });
});

describe('sign-in tab', () => {
  it("shows the server's lockout message as said", async () => {
    fakeServer({ '/accountLogin': () => new Refusal(1110, 'Too many login errors, retry after 10 minutes') });
    await submitSignIn('alice', 'abc123');
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many login errors, retry after 10 minutes');
  });

  it('forgot password sends the code to the bound phone and resets', async () => {
    const server = fakeServer({
      '/sendSmsCode': () => ({ resendSeconds: 60, expiresIn: 300 }),
      '/forget': () => null,
    });
    const user = userEvent.setup();
    const { router } = renderApp('/pages/auth/login');
    await user.type(await screen.findByLabelText('Account'), 'alice');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Forgot password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Account')).toHaveValue('alice');
    await user.click(screen.getByRole('button', { name: 'Get code' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter the phone number');
    await user.type(screen.getByLabelText('Bound phone number'), '13800138000');
    await user.click(screen.getByRole('button', { name: 'Get code' }));
    expect(await screen.findByRole('button', { name: '60 s' })).toBeDisabled();
    expect(server.callsTo('/sendSmsCode')[0]?.body).toEqual({ phone: '13800138000', type: 'forget', account: 'alice' });
    await user.type(screen.getByLabelText('Verification code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'new123');
    await user.type(screen.getByLabelText('Confirm password'), 'new123');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => {
      expect(router.state.location.search).toContain('account=alice');
    });
    expect(server.callsTo('/forget')[0]?.body).toEqual({
      account: 'alice',
      phone: '13800138000',
      smsCode: '123456',
      password: 'new123',
      confirmPassword: 'new123',
    });
    expect(await screen.findByRole('tab', { name: 'Sign in' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Account')).toHaveValue('alice');
  });
});
