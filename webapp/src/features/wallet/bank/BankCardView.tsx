import type { ReactNode } from 'react';
import type { BankCard } from '../../../api/wallet';
import styles from './BankManagementPage.module.css';

/** A bound card: bank, holder, the masked number grouped by four. */
export function BankCardView({ card, children }: { card: BankCard; children?: ReactNode }) {
  // The server masks all but the last four digits; show them the way cards print them.
  const grouped = `**** **** **** ${card.cardNumber.slice(-4)}`;
  return (
    <div className={styles['bank-card']}>
      <div className={styles['bank-card__head']}>
        <span className={styles['bank-card__bank']}>{card.bankName}</span>
        {children}
      </div>
      <span className={styles['bank-card__holder']}>{card.holderName}</span>
      <span className={styles['bank-card__number']}>{grouped}</span>
    </div>
  );
}
