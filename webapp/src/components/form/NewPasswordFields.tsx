import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from './TextField';

interface NewPasswordFieldsProps {
  /** The new password's label: "Password" when registering, "New password" elsewhere. */
  label?: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  /** The field the form's last check refused, if one of these two. */
  /** Which of the two the form marks as wrong (a form's `invalid`, from useFormChecks). */
  invalid: (field: 'password' | 'confirm') => boolean;
}

/**
 * A new password and its confirmation, as register, forgot password and change password ask
 * for them (the rule as the hint; browsers offer to generate and save it).
 */
export function NewPasswordFields({ label, password, confirm, onPassword, onConfirm, invalid }: NewPasswordFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        label={label ?? t('auth.newPassword')}
        name="new-password"
        revealable
        autoComplete="new-password"
        placeholder={t('auth.passwordHint')}
        hint={t('auth.passwordRule')}
        value={password}
        invalid={invalid('password')}
        onChange={onPassword}
      />
      <TextField
        label={t('auth.confirmPassword')}
        name="confirm-password"
        revealable
        autoComplete="new-password"
        placeholder={t('auth.confirmPasswordPlaceholder')}
        value={confirm}
        invalid={invalid('confirm')}
        onChange={onConfirm}
      />
    </>
  );
}

/**
 * What a form keeps for NewPasswordFields: the new password and its confirmation, and `fields`,
 * the props that show and edit them.
 */
export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  return { password, confirm, fields: { password, confirm, onPassword: setPassword, onConfirm: setConfirm } };
}
