/**
 * Typed calls of the accounts area (httpapi/openapi/accounts.yaml): registration, the
 * verification a form needs, password reset, the user's profile and settings.
 */
import { api, type RequestOptions } from './client';

/** The check a verified form needs (`/getVerifyType`). */
export type VerifyKind = 'none' | 'captcha' | 'sms';

export interface VerifyTypes {
  register: VerifyKind;
  login: VerifyKind;
  forget: VerifyKind;
  setPhone: VerifyKind;
}

export interface RegisterConfig {
  captchaRequired: boolean;
  inviteCodeRequired: boolean;
  required: string[];
}

export interface Captcha {
  captchaId: string;
  /** `data:image/png;base64,...` */
  image: string;
  length: number;
  expiresIn: number;
}

export interface RegisterInput {
  account: string;
  password: string;
  confirmPassword: string;
  inviteCode?: string;
  captchaId?: string;
  captchaCode?: string;
}

export interface RegisterResult {
  userId: string;
  account: string;
  inviteCode: string;
}

export type SmsPurpose = 'forget' | 'setPhone';

export interface SmsSent {
  resendSeconds: number;
  expiresIn: number;
}

export interface ForgetInput {
  account: string;
  phone: string;
  smsCode: string;
  password: string;
  confirmPassword: string;
}

/** `/user/mine`: the signed-in user. */
export interface UserInfo {
  userId: string;
  /** The account name. */
  username: string;
  nickName: string;
  avatar: string;
  /** Masked, e.g. 138****5678; empty when none is bound. */
  phone: string;
  /** Unread notices. */
  notice: number;
  /** 0 not activated, 1 activated. */
  isActivation: number;
  customerId: string;
  isRecharge: boolean;
  inviteCode: string;
  hasFundPassword: boolean;
  isOperator: number;
}

export interface ChangePasswordInput {
  oldPassword: string;
  password: string;
  confirmPassword: string;
}

export interface InviteLink {
  inviteCode: string;
  url: string;
}

export const accountsApi = {
  verifyTypes: (options?: RequestOptions) => api.request<VerifyTypes>('/getVerifyType', {}, options),
  registerConfig: (options?: RequestOptions) => api.request<RegisterConfig>('/register/config', {}, options),
  captcha: (options?: RequestOptions) => api.request<Captcha>('/getCaptcha', {}, { quiet: true, ...options }),
  register: (input: RegisterInput) => api.request<RegisterResult>('/register', { ...input }, { quiet: true }),
  sendSmsCode: (phone: string, type: SmsPurpose, account?: string) =>
    api.request<SmsSent>('/sendSmsCode', { phone, type, account }, { quiet: true }),
  forget: (input: ForgetInput) => api.request<null>('/forget', { ...input }, { quiet: true }),

  mine: (options?: RequestOptions) => api.request<UserInfo>('/user/mine', {}, options),
  editNick: (nickName: string) => api.request<{ nickName: string }>('/user/editNick', { nickName }, { quiet: true }),
  changePassword: (input: ChangePasswordInput) =>
    api.request<null>('/user/changePwd', { ...input }, { quiet: true }),
  setPhone: (phone: string, smsCode?: string) =>
    api.request<{ phone: string }>('/user/setPhone', { phone, smsCode }, { quiet: true }),
  uploadAvatar: (file: Blob, name: string) => {
    const form = new FormData();
    form.append('file', file, name);
    return api.upload<{ avatar: string }>('/user/uploadAvatar', form, { quiet: true });
  },
  inviteLink: () => api.request<InviteLink>('/user/getUserProUrl'),
};
