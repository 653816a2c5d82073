import '../../components/ui/ui.css';
import { useTranslation } from 'react-i18next';
import type { PhaseNow } from './phase';
import './rounds.css';

interface PhaseBadgeProps {
  phase: PhaseNow['phase'];
}

/** The phase in words and colour: betting green, drawing orange, rest grey. */
export function PhaseBadge({ phase }: PhaseBadgeProps) {
  const { t } = useTranslation();
  return (
    <span className={`phase-badge phase-badge--${phase}`} data-phase={phase}>
      {t(`rounds.phase.${phase}`)}
    </span>
  );
}
