import type { ReactNode } from 'react';

/** One attachment choice of the more panel: an icon over its label. */
export function MoreTile({ label, icon, onClick }: { label: string; icon: ReactNode; onClick: () => void }) {
  return (
    <button type="button" className="composer-tile" onClick={onClick}>
      <span className="composer-tile__icon">{icon}</span>
      <span className="composer-tile__label">{label}</span>
    </button>
  );
}
