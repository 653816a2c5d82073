import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { contentApi } from '../../api/content';
import { videoKeys } from './queries';

export const INVITE_PREFIX = 'pro_';

/** Spec section 5: invite codes are accepted only if they start with pro_. */
export function inviteCodeProblem(code: string): 'required' | 'prefix' | null {
  const value = code.trim();
  if (!value) return 'required';
  if (!value.startsWith(INVITE_PREFIX) || value.length === INVITE_PREFIX.length) return 'prefix';
  return null;
}

/** The video area asks for an invitation code first when registration requires one. */
export function InviteCodeGate() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<'required' | 'prefix' | null>(null);
  const bind = useMutation({
    mutationFn: (inviteCode: string) => contentApi.bindInviteCode(inviteCode, { quiet: true }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: videoKeys.userIndex });
    },
  });

  const submit = (event: SyntheticEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (bind.isPending) return;
    const found = inviteCodeProblem(code);
    setProblem(found);
    if (found) return;
    bind.mutate(code.trim());
  };

  let message: string | null = null;
  if (problem === 'required') message = t('videos.invite.required');
  else if (problem === 'prefix') message = t('videos.invite.prefix');
  else if (bind.error) message = bind.error.message;

  return (
    <form className="invite-gate" onSubmit={submit} noValidate aria-labelledby="invite-gate-title">
      <h2 id="invite-gate-title" className="invite-gate__title">
        {t('videos.invite.title')}
      </h2>
      <p className="invite-gate__text">{t('videos.invite.text')}</p>
      <label className="invite-gate__field">
        <span className="visually-hidden">{t('videos.invite.label')}</span>
        <input
          className="text-input"
          name="inviteCode"
          autoCapitalize="none"
          autoComplete="off"
          spellCheck={false}
          placeholder={t('videos.invite.placeholder')}
          value={code}
          aria-invalid={problem !== null}
          onChange={(event) => {
            setCode(event.target.value.replace(/\s+/g, ''));
            setProblem(null);
          }}
        />
      </label>
      <p className="form-message" role="alert">
        {message}
      </p>
      <button type="submit" className="button button--block" disabled={bind.isPending}>
        {bind.isPending ? t('videos.invite.binding') : t('videos.invite.submit')}
      </button>
    </form>
  );
}
