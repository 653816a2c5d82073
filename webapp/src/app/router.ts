import { createBrowserRouter } from 'react-router';
import { setApiNavigator } from '../api/client';
import { routes } from './routes';

/** History router, base `/`. */
export const router = createBrowserRouter(routes, { basename: '/' });

// The API module sends the user to the login page through the router (no page reload).
setApiNavigator((path) => {
  void router.navigate(path);
});
