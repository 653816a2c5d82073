// Route /pages/auth/login: the screen lives with its feature.
export { LoginPage } from '../../features/account/auth/LoginPage';
