/**
 * Turns off zod's compiled fast path for every schema a Run panel's chunk creates. A page parses
 * each schema a handful of times, and the fast path (a parser built with `new Function` on a
 * schema's first parse) costs more to build than those parses gain.
 *
 * zod reads the setting when a schema is created, not when it parses, so this module must run
 * before any module that creates one. Panel.tsx imports it first, and each panel chunk
 * (./load/*.ts) starts with the Panel, before the core and the examples, whose schemas are
 * created as their modules are evaluated.
 */
import { config } from 'zod';

config({ jitless: true });
