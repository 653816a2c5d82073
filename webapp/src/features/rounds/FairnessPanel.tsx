import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FairnessRow, RoundResult } from '../../api/rounds';
import { sectionGate } from '../../components/status/SectionState';
import { useFairness } from './queries';
import styles from './trend.module.css';
import { VerifyDialog } from './VerifyDialog';

interface FairnessPanelProps {
  windowId: number;
}

const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;

/** A row's outcome in the player's words: "Big", "Big · Single", or a digit. */
function useOutcomeLabel() {
  const { t } = useTranslation();
  return (row: FairnessRow): string =>
    /^\d$/.test(row.outcome)
      ? t('rounds.fairness.digit', { digit: row.outcome })
      : row.outcome
          .split(' ')
          .map((word) => t(`rounds.content.${word as 'BIG'}`))
          .join(' · ');
}

/**
 * The window's newest 1,000 rounds against a fair draw: each outcome's observed share against
 * the expected one, the chi-square p-value of each group, and "verify" on each row opening the
 * newest round with that outcome in the in-browser check.
 */
export function FairnessPanel({ windowId }: FairnessPanelProps) {
  const { t } = useTranslation();
  const fairness = useFairness(windowId);
  const label = useOutcomeLabel();
  const [verifying, setVerifying] = useState<RoundResult | null>(null);
  const closeVerify = useCallback(() => {
    setVerifying(null);
  }, []);

  if (!fairness.isSuccess) return sectionGate(fairness);
  const data = fairness.data;
  if (data.rounds === 0) return <p className="muted-note">{t('rounds.history.empty')}</p>;

  return (
    <section className={styles.fairness} aria-label={t('rounds.fairness.title')} data-rounds={data.rounds}>
      <p className={styles.trend__summary}>{t('rounds.fairness.summary', { n: data.rounds })}</p>
      {data.tests.map((test) => (
        <table key={test.group} className={styles.fairness__table} data-group={test.group}>
          <caption className={styles.fairness__caption}>
            {t(`rounds.fairness.group.${test.group}`)}
            <span className={styles.fairness__p} data-stat="p">
              {t('rounds.fairness.pValue', { chi: test.chiSquare.toFixed(2), df: test.df, p: test.pValue.toFixed(3) })}
            </span>
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('rounds.fairness.outcome')}</th>
              <th scope="col">{t('rounds.fairness.observed')}</th>
              <th scope="col">{t('rounds.fairness.expected')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('rounds.history.verify')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {test.rows.map((row) => (
              <tr key={row.outcome} data-outcome={row.outcome}>
                <th scope="row">{label(row)}</th>
                <td data-stat="observed">
                  {row.observed} ({percent(row.share)})
                </td>
                <td data-stat="expected">
                  {row.expected.toFixed(1)} ({percent(row.fair)})
                </td>
                <td>
                  {row.latest ? (
                    <button
                      type="button"
                      className="history__verify"
                      // The short word fits the row's last column; the name says which round.
                      aria-label={t('rounds.fairness.verify')}
                      onClick={() => {
                        setVerifying(row.latest ?? null);
                      }}
                    >
                      {t('rounds.history.verify')}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      <p className={styles.trend__summary}>{t('rounds.fairness.explain')}</p>
      {verifying ? <VerifyDialog result={verifying} onClose={closeVerify} /> : null}
    </section>
  );
}
