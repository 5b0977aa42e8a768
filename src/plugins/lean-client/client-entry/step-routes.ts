// Step 2 of client-entry: the router and the route table (every route's lazy component).
export { BrowserRouter } from 'react-router-dom';
export { default as routes } from '@generated/routes';
