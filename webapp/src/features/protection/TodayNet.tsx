import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../format';
import styles from './protection.module.css';

/** Today's net result of the player's bets (returns minus stakes), on the round screen. */
export function TodayNet({ net }: { net: number }) {
  const { t } = useTranslation();
  const tone = net > 0 ? styles['today-net__value--up'] : net < 0 ? styles['today-net__value--down'] : '';
  return (
    <p className={styles['today-net']} data-testid="today-net" data-net={net}>
      <span>{t('protection.today.label')}</span>
      <span className={`${styles['today-net__value']} ${tone}`}>
        {net > 0 ? '+' : ''}
        {formatMoney(net, t)}
      </span>
    </p>
  );
}
