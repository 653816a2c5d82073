import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FIND_PATHS } from '../../navigation/paths';
import { isDesktopDevice, isFramed } from './device';

/**
 * Spec section 2: if the device model is 'PC' on launch, the app is shown inside the
 * phone-sized iframe page (the app inside the frame is not redirected again).
 */
export function LaunchChecks() {
  const location = useLocation();
  const navigate = useNavigate();
  const launched = useRef(false);

  useEffect(() => {
    if (launched.current) return;
    launched.current = true;
    if (!isFramed() && isDesktopDevice() && !location.pathname.startsWith(FIND_PATHS.iframe)) {
      const path = `${location.pathname}${location.search}`;
      void navigate(`${FIND_PATHS.iframe}?${new URLSearchParams({ path }).toString()}`, { replace: true });
    }
  }, [location, navigate]);

  return null;
}
