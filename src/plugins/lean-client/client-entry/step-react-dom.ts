// Step 1 of client-entry: React DOM (with React and its scheduler), the largest module to evaluate.
export { hydrateRoot } from 'react-dom/client';
