interface IconProps {
  active: boolean;
}

const common = {
  viewBox: '0 0 24 24',
  width: 24,
  height: 24,
  'aria-hidden': true,
  focusable: false,
} as const;

/** The outline every tab icon draws; its shapes fill in when the tab is the current one. */
function stroke(active: boolean) {
  return { fill: active ? 'currentColor' : 'none', stroke: 'currentColor', strokeWidth: '1.8' } as const;
}

export function ChatIcon({ active }: IconProps) {
  return (
    <svg {...common}>
      <path
        d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.2 3.6A.5.5 0 0 1 5 19.2V16h.5A1.5 1.5 0 0 1 4 14.5z"
        {...stroke(active)}
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function FindIcon({ active }: IconProps) {
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="9" {...stroke(false)} />
      <path d="m15.5 8.5-2 5-5 2 2-5z" {...stroke(active)} strokeLinejoin="round" />
    </svg>
  );
}

export function MineIcon({ active }: IconProps) {
  return (
    <svg {...common}>
      <circle cx="12" cy="8" r="4" {...stroke(active)} />
      <path d="M4 20.5c.8-3.8 4-6 8-6s7.2 2.2 8 6" {...stroke(active)} strokeLinecap="round" />
    </svg>
  );
}
