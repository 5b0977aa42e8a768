// Step 2 of client-entry: the route table (every route's lazy component), imported here only to
// be evaluated in this step (the app and preload use it), and the router.
import '@generated/routes';
export { BrowserRouter } from 'react-router-dom';
