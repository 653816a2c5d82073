// Route /pages/modal/update-alert: the screen lives with its feature.
export { UpdateAlertPage } from '../../features/modal/UpdateAlertPage';
