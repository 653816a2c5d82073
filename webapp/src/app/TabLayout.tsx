import { Outlet, useLocation } from 'react-router';
import { TabBar } from '../components/tab-bar/TabBar';

/** Tab pages: the page animates on a tab switch, the tab bar does not. */
export function TabLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <div key={pathname} className="route-enter page page--with-tab-bar">
        <Outlet />
      </div>
      <TabBar />
    </>
  );
}
