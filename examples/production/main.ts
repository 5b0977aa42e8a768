import { startService } from './service.js';

await startService();
