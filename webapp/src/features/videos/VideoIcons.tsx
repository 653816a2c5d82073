/** Icons of the highlights feed (drawn, so they show without an emoji font). */
const common = {
  viewBox: '0 0 24 24',
  width: 28,
  height: 28,
  'aria-hidden': true,
  focusable: false,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

export function ChatBubbleIcon() {
  return (
    <svg {...common}>
      <path d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.2 3.6A.5.5 0 0 1 5 19.2V16h.5A1.5 1.5 0 0 1 4 14.5z" />
    </svg>
  );
}

export function ForwardIcon() {
  return (
    <svg {...common}>
      <path d="M14 5l7 7-7 7" />
      <path d="M21 12H10a6 6 0 0 0-6 6v1" />
    </svg>
  );
}

export function SaveIcon() {
  return (
    <svg {...common}>
      <path d="M12 4v11" />
      <path d="M7 10l5 5 5-5" />
      <path d="M5 20h14" />
    </svg>
  );
}

export function SoundIcon({ muted }: { muted: boolean }) {
  return (
    <svg {...common} width={24} height={24}>
      <path d="M4 9h4l5-4v14l-5-4H4z" />
      {muted ? <path d="M17 9l5 5M22 9l-5 5" /> : <path d="M17 8.5a5 5 0 0 1 0 7M19.5 6a8.5 8.5 0 0 1 0 12" />}
    </svg>
  );
}
