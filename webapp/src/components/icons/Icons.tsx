/** Line icons (24 x 24 grid, currentColor), for every screen. They are decorative: the control carries the label. */
import type { ReactNode } from 'react';

export function Icon({ children, size = 22 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

export const EyeIcon = () => (
  <Icon>
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </Icon>
);

export const EyeOffIcon = () => (
  <Icon>
    <path d="M3 3l18 18M10.6 5.1A10.8 10.8 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-3.2 4.1M6.6 6.6C3.8 8.4 2 12 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2" />
  </Icon>
);

export const CopyIcon = () => (
  <Icon size={20}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V6a2 2 0 0 1 2-2h9" />
  </Icon>
);

export const CameraIcon = () => (
  <Icon>
    <path d="M4 8h3l2-3h6l2 3h3v11H4z" />
    <circle cx="12" cy="13" r="3.5" />
  </Icon>
);

export const AlbumIcon = () => (
  <Icon>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="2" />
    <path d="m21 16-5-5-9 9" />
  </Icon>
);

export const RecordIcon = () => (
  <Icon>
    <path d="M7 3h10a2 2 0 0 1 2 2v16l-3-2-3 2-3-2-3 2-2-1.3V5a2 2 0 0 1 2-2z" />
    <path d="M9 8h6M9 12h6" />
  </Icon>
);

export const PointsIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M9 9.5h4.5a2 2 0 0 1 0 4H9V8m0 10v-4.5M9 13.5h5" />
  </Icon>
);

export const ExchangeIcon = () => (
  <Icon>
    <path d="M4 8h14l-3-3M20 16H6l3 3" />
  </Icon>
);

export const ShieldIcon = () => (
  <Icon>
    <path d="M12 3 5 6v5c0 4.4 3 8.4 7 10 4-1.6 7-5.6 7-10V6z" />
    <path d="m9 12 2 2 4-4" />
  </Icon>
);

export const BellIcon = () => (
  <Icon>
    <path d="M6 17V11a6 6 0 0 1 12 0v6l1.5 2h-15z" />
    <path d="M10 21h4" />
  </Icon>
);

export const DownloadIcon = () => (
  <Icon>
    <path d="M12 4v11m-4-4 4 4 4-4M5 20h14" />
  </Icon>
);

export const UserIcon = () => (
  <Icon>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c.8-4 4-6 8-6s7.2 2 8 6" />
  </Icon>
);

export const SwitchIcon = () => (
  <Icon>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M3 20c.6-3.2 3-5 6-5 1.2 0 2.3.3 3.2.8M15 14h6l-2-2m2 6h-6l2 2" />
  </Icon>
);

export const QrIcon = () => (
  <Icon>
    <path d="M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2zM14 18h2M18 14h2" />
  </Icon>
);

export const GlobeIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z" />
  </Icon>
);

export const InfoIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v6M12 7.5v.5" />
  </Icon>
);

export const PhoneIcon = () => (
  <Icon>
    <rect x="7" y="2.5" width="10" height="19" rx="2" />
    <path d="M11 18.5h2" />
  </Icon>
);

export const CardIcon = () => (
  <Icon>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 10h18M7 15h4" />
  </Icon>
);

export const LockIcon = () => (
  <Icon>
    <rect x="5" y="10" width="14" height="11" rx="2" />
    <path d="M8 10V7a4 4 0 0 1 8 0v3" />
  </Icon>
);

export const KeyIcon = () => (
  <Icon>
    <circle cx="8" cy="15" r="4" />
    <path d="m11 12 9-9m-3 3 3 3m-6 0 2 2" />
  </Icon>
);

export const CheckIcon = ({ size = 20 }: { size?: number }) => (
  <Icon size={size}>
    <path d="m5 12 5 5 9-10" />
  </Icon>
);

export const PlusIcon = ({ size = 20 }: { size?: number }) => (
  <Icon size={size}>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);

export const RefreshIcon = () => (
  <Icon size={20}>
    <path d="M20 11a8 8 0 0 0-14.6-4.5M4 5v4h4M4 13a8 8 0 0 0 14.6 4.5M20 19v-4h-4" />
  </Icon>
);

export const CloseIcon = () => (
  <Icon size={20}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Icon>
);

// Chat screens draw their icons at 24 px.
export const SearchIcon = () => (
  <Icon size={24}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4 4" />
  </Icon>
);
export const ContactsIcon = () => (
  <Icon size={24}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 19c.8-3.4 3.4-5 6.5-5s5.7 1.6 6.5 5M16 5.5a3 3 0 0 1 0 5.5M18 14c2 .6 3.2 2.2 3.5 5" />
  </Icon>
);
export const GroupIcon = () => (
  <Icon size={24}>
    <circle cx="8" cy="9" r="3" />
    <circle cx="16" cy="9" r="3" />
    <path d="M2.5 19c.6-2.8 2.8-4.5 5.5-4.5s4.9 1.7 5.5 4.5M13 15.2c.9-.5 1.9-.7 3-.7 2.7 0 4.9 1.7 5.5 4.5" />
  </Icon>
);
export const ChannelIcon = () => (
  <Icon size={24}>
    <path d="M4 10v4a1 1 0 0 0 1 1h2l6 4V5L7 9H5a1 1 0 0 0-1 1zM17 9a4 4 0 0 1 0 6M19.5 6.5a7.5 7.5 0 0 1 0 11" />
  </Icon>
);
export const PersonAddIcon = () => (
  <Icon size={24}>
    <circle cx="10" cy="8" r="3.5" />
    <path d="M3.5 19.5c.8-3.4 3.4-5 6.5-5 1.4 0 2.7.3 3.8 1M18 13v6M15 16h6" />
  </Icon>
);
export const ScanIcon = () => (
  <Icon size={24}>
    <path d="M4 8V5a1 1 0 0 1 1-1h3M16 4h3a1 1 0 0 1 1 1v3M20 16v3a1 1 0 0 1-1 1h-3M8 20H5a1 1 0 0 1-1-1v-3M4 12h16" />
  </Icon>
);
export const MicIcon = () => (
  <Icon size={24}>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21" />
  </Icon>
);
export const KeyboardIcon = () => (
  <Icon size={24}>
    <rect x="3" y="6" width="18" height="12" rx="2" />
    <path d="M7 10h.01M11 10h.01M15 10h.01M7 14h10" />
  </Icon>
);
export const SmileIcon = () => (
  <Icon size={24}>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
  </Icon>
);
export const ImageIcon = () => (
  <Icon size={24}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="1.8" />
    <path d="m4 18 5-5 4 4 3-3 4 4" />
  </Icon>
);
export const VideoIcon = () => (
  <Icon size={24}>
    <rect x="3" y="6" width="13" height="12" rx="2" />
    <path d="m16 10 5-3v10l-5-3" />
  </Icon>
);
export const FileIcon = () => (
  <Icon size={24}>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5" />
  </Icon>
);
export const LocationIcon = () => (
  <Icon size={24}>
    <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" />
    <circle cx="12" cy="9.5" r="2.5" />
  </Icon>
);
export const ContactCardIcon = () => (
  <Icon size={24}>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <circle cx="9" cy="11" r="2.2" />
    <path d="M5.5 16.5c.6-1.6 1.9-2.5 3.5-2.5s2.9.9 3.5 2.5M14.5 10h4M14.5 13.5h3" />
  </Icon>
);
export const PlayIcon = () => (
  <Icon size={24}>
    <path d="M8 5v14l11-7z" fill="currentColor" />
  </Icon>
);
export const PauseIcon = () => (
  <Icon size={24}>
    <path d="M8 5v14M16 5v14" strokeWidth="3" />
  </Icon>
);
export const AlertIcon = () => (
  <Icon size={24}>
    <circle cx="12" cy="12" r="9" fill="currentColor" stroke="none" />
    <path d="M12 7.5v5.5M12 16.5h.01" stroke="#fff" strokeWidth="2.2" />
  </Icon>
);
export const MoreIcon = () => (
  <Icon size={24}>
    <path d="M6 12h.01M12 12h.01M18 12h.01" strokeWidth="3" />
  </Icon>
);
export const ChevronIcon = () => (
  <Icon size={24}>
    <path d="m9 6 6 6-6 6" />
  </Icon>
);

/** A struck-through bell: a chat set to do not disturb. */
export const BellOffIcon = ({ size = 22 }: { size?: number }) => (
  <Icon size={size}>
    <path d="M6 17V11a6 6 0 0 1 9.5-4.9M18 11v6l1.5 2h-15" />
    <path d="M10 21h4" />
    <path d="M4 4l16 16" />
  </Icon>
);

/** A push pin: pin a chat to the top. */
export const PinIcon = () => (
  <Icon>
    <path d="M9 4h6l-1 6 3 3H7l3-3z" />
    <path d="M12 13v7" />
  </Icon>
);
