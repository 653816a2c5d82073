import { useTranslation } from 'react-i18next';
import type { SlipInput } from '../../api/rounds';
import { ConfirmDialog } from '../../components/dialog/ConfirmDialog';
import { formatMoney } from '../../format';

interface SlipConfirmProps {
  slip: SlipInput;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The one confirmation of a bet slip: the issue, every selection with its amount, and the total. */
export function SlipConfirm({ slip, onConfirm, onCancel }: SlipConfirmProps) {
  const { t } = useTranslation();
  const total = slip.selections.reduce((sum, s) => sum + s.amount, 0);
  return (
    <ConfirmDialog title={t('rounds.bet.slipConfirmTitle')} confirmLabel={t('rounds.bet.submit')} onConfirm={onConfirm} onCancel={onCancel}>
      <p>{t('rounds.bet.slipIssue', { issue: slip.issue })}</p>
      <ul className="bet-slip__lines">
        {slip.selections.map((s) => (
          <li key={s.content} className="bet-slip__line" data-content={s.content} data-amount={s.amount}>
            <span>{t(`rounds.content.${s.content}`)}</span>
            <span>{formatMoney(s.amount, t)}</span>
          </li>
        ))}
      </ul>
      <p className="bet-slip__total" data-total={total}>
        {t('rounds.bet.slipTotal', { amount: formatMoney(total, t) })}
      </p>
    </ConfirmDialog>
  );
}
