import type { ReactNode } from 'react';
import { Link } from 'react-router';
import './Menu.css';

/** A grouped list of rows (settings style). */
export function MenuList({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ul className="menu" aria-label={label}>
      {children}
    </ul>
  );
}

interface RowContent {
  label: string;
  icon?: ReactNode;
  /** Shown on the right, muted. */
  value?: ReactNode;
  /** A count badge (hidden when 0); `badgeLabel` is what a screen reader says. */
  badge?: number;
  badgeLabel?: string;
}

function Row({ label, icon, value, badge, badgeLabel, nav = false }: RowContent & { nav?: boolean }) {
  return (
    <>
      {icon ? <span className="menu__icon">{icon}</span> : null}
      <span className="menu__label">{label}</span>
      {badge ? (
        <span className="menu__badge" aria-label={badgeLabel}>
          {badge > 99 ? '99+' : badge}
        </span>
      ) : null}
      {value !== undefined && value !== null && value !== '' ? <span className="menu__value">{value}</span> : null}
      {/* A real element, not CSS content: generated content would join the accessible name. */}
      {nav ? (
        <span className="menu__chevron" aria-hidden="true">
          ›
        </span>
      ) : null}
    </>
  );
}

export function MenuLink({ to, ...row }: RowContent & { to: string }) {
  return (
    <li>
      <Link className="menu__row menu__row--nav" to={to}>
        <Row {...row} nav />
      </Link>
    </li>
  );
}

/** A row opening an address outside the app (a download) in a new tab. */
export function MenuExternalLink({ href, ...row }: RowContent & { href: string }) {
  return (
    <li>
      <a className="menu__row menu__row--nav" href={href} target="_blank" rel="noopener noreferrer">
        <Row {...row} nav />
      </a>
    </li>
  );
}

export function MenuButton({ onClick, disabled, ...row }: RowContent & { onClick: () => void; disabled?: boolean }) {
  return (
    <li>
      <button type="button" className="menu__row menu__row--nav" onClick={onClick} disabled={disabled}>
        <Row {...row} nav />
      </button>
    </li>
  );
}

/** A row with an on/off switch (the whole row toggles it). */
export function MenuSwitch({
  checked,
  onChange,
  disabled,
  ...row
}: RowContent & { checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  return (
    <li>
      <label className="menu__row menu__row--nav">
        <Row {...row} />
        <input
          type="checkbox"
          role="switch"
          className="menu__switch"
          checked={checked}
          disabled={disabled}
          onChange={(event) => {
            onChange(event.target.checked);
          }}
        />
      </label>
    </li>
  );
}

/** A row that only shows a value. */
export function MenuItem(row: RowContent) {
  return (
    <li className="menu__row">
      <Row {...row} />
    </li>
  );
}
