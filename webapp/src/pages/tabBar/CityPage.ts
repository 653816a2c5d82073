// Route /pages/tabBar/city: the screen lives with its feature.
export { CityPage } from '../../features/city/CityPage';
