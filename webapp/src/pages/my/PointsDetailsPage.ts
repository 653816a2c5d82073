// Route /pages/my/points-details: the screen lives with its feature.
export { PointsDetailsPage } from '../../features/wallet/records/PointsDetailsPage';
