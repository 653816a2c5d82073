// Route /pages/my/recharge: the screen lives with its feature.
export { RechargePage } from '../../features/wallet/recharge/RechargePage';
