/** Line icons of the chat screens (24 x 24, currentColor). Always decorative: buttons carry labels. */
const common = {
  viewBox: '0 0 24 24',
  width: 24,
  height: 24,
  'aria-hidden': true,
  focusable: false,
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

export const PlusIcon = () => (
  <svg {...common}>
    <path d="M12 5v14M5 12h14" />
  </svg>
);
export const SearchIcon = () => (
  <svg {...common}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4 4" />
  </svg>
);
export const ContactsIcon = () => (
  <svg {...common}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 19c.8-3.4 3.4-5 6.5-5s5.7 1.6 6.5 5M16 5.5a3 3 0 0 1 0 5.5M18 14c2 .6 3.2 2.2 3.5 5" />
  </svg>
);
export const GroupIcon = () => (
  <svg {...common}>
    <circle cx="8" cy="9" r="3" />
    <circle cx="16" cy="9" r="3" />
    <path d="M2.5 19c.6-2.8 2.8-4.5 5.5-4.5s4.9 1.7 5.5 4.5M13 15.2c.9-.5 1.9-.7 3-.7 2.7 0 4.9 1.7 5.5 4.5" />
  </svg>
);
export const ChannelIcon = () => (
  <svg {...common}>
    <path d="M4 10v4a1 1 0 0 0 1 1h2l6 4V5L7 9H5a1 1 0 0 0-1 1zM17 9a4 4 0 0 1 0 6M19.5 6.5a7.5 7.5 0 0 1 0 11" />
  </svg>
);
export const PersonAddIcon = () => (
  <svg {...common}>
    <circle cx="10" cy="8" r="3.5" />
    <path d="M3.5 19.5c.8-3.4 3.4-5 6.5-5 1.4 0 2.7.3 3.8 1M18 13v6M15 16h6" />
  </svg>
);
export const ScanIcon = () => (
  <svg {...common}>
    <path d="M4 8V5a1 1 0 0 1 1-1h3M16 4h3a1 1 0 0 1 1 1v3M20 16v3a1 1 0 0 1-1 1h-3M8 20H5a1 1 0 0 1-1-1v-3M4 12h16" />
  </svg>
);
export const MicIcon = () => (
  <svg {...common}>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21" />
  </svg>
);
export const KeyboardIcon = () => (
  <svg {...common}>
    <rect x="3" y="6" width="18" height="12" rx="2" />
    <path d="M7 10h.01M11 10h.01M15 10h.01M7 14h10" />
  </svg>
);
export const SmileIcon = () => (
  <svg {...common}>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
  </svg>
);
export const ImageIcon = () => (
  <svg {...common}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="1.8" />
    <path d="m4 18 5-5 4 4 3-3 4 4" />
  </svg>
);
export const VideoIcon = () => (
  <svg {...common}>
    <rect x="3" y="6" width="13" height="12" rx="2" />
    <path d="m16 10 5-3v10l-5-3" />
  </svg>
);
export const FileIcon = () => (
  <svg {...common}>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5" />
  </svg>
);
export const LocationIcon = () => (
  <svg {...common}>
    <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" />
    <circle cx="12" cy="9.5" r="2.5" />
  </svg>
);
export const CardIcon = () => (
  <svg {...common}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <circle cx="9" cy="11" r="2.2" />
    <path d="M5.5 16.5c.6-1.6 1.9-2.5 3.5-2.5s2.9.9 3.5 2.5M14.5 10h4M14.5 13.5h3" />
  </svg>
);
export const PlayIcon = () => (
  <svg {...common}>
    <path d="M8 5v14l11-7z" fill="currentColor" />
  </svg>
);
export const PauseIcon = () => (
  <svg {...common}>
    <path d="M8 5v14M16 5v14" strokeWidth="3" />
  </svg>
);
export const AlertIcon = () => (
  <svg {...common}>
    <circle cx="12" cy="12" r="9" fill="currentColor" stroke="none" />
    <path d="M12 7.5v5.5M12 16.5h.01" stroke="#fff" strokeWidth="2.2" />
  </svg>
);
export const CheckIcon = () => (
  <svg {...common}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </svg>
);
export const MoreIcon = () => (
  <svg {...common}>
    <path d="M6 12h.01M12 12h.01M18 12h.01" strokeWidth="3" />
  </svg>
);
export const ChevronIcon = () => (
  <svg {...common}>
    <path d="m9 6 6 6-6 6" />
  </svg>
);
