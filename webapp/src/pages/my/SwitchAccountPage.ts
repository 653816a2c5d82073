// Route /pages/my/switch-account: the screen lives with its feature.
export { SwitchAccountPage } from '../../features/account/switch/SwitchAccountPage';
