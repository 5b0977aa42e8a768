/**
 * A block's hover data (the encoded string src/remark/type-hovers puts on its <code>), from
 * ./index.tsx to the highlighter. Decoded only where the block is highlighted: on the server,
 * and in the browser for a block highlighted again after a client-side navigation.
 */
import { createContext } from 'react';

export const TypeHoversContext = createContext<string | undefined>(undefined);
