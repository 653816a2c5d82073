// Route /pages/my/share-qrcode: the screen lives with its feature.
export { ShareQrcodePage } from '../../features/account/profile/ShareQrcodePage';
