// Route /pages/find/incentive-window: the screen lives with its feature.
export { IncentiveWindowPage } from '../../features/rounds/IncentiveWindowPage';
