/** The local search plugin's results page: its default route (`searchRouteBasePath: 'search'`). */
export const SEARCH_PAGE_PATH = '/search/';
