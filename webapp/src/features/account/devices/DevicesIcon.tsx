import { Icon } from '../../../components/icons/Icons';

/** A phone before a screen: the devices row of the safety settings. */
export const DevicesIcon = () => (
  <Icon>
    <rect x="2" y="4" width="14" height="10" rx="1.5" />
    <path d="M6 18h6" />
    <rect x="15" y="9" width="7" height="12" rx="1.5" />
  </Icon>
);
