export const NOT_FOUND_ROUTE_ID = 'not-found';
