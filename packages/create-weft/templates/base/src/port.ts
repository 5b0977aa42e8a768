/**
 * The agent's HTTP port when nothing else is asked for. Not 3000: the docs site's `npm start`
 * and many web dev servers take it, and a first `npm run dev` must not collide with them. The
 * generated project's `src/port.ts` is a copy, and create-weft writes this number into its
 * README, Dockerfile and `.env.example`.
 */
export const DEFAULT_PORT = 8787;
