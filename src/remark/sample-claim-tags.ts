/**
 * Drops the claim ids from the test titles of code blocks filled from sample files
 * (```ts file=<rootDir>/examples/…, which remark-code-import fills first): a reader copies the
 * test, and `[claim:id]` is for the claims checker (tests/claims/), which reads the file.
 */
import { withoutTitleClaimTags } from '@weft-internal/docs-model/claim-comments';

interface Node {
  type: string;
  value?: string;
  meta?: string | null;
  children?: Node[];
}

/** A block whose code comes from a file: `file=` in its meta. */
const FROM_FILE = /(?:^|\s)file=\S/;

function strip(node: Node): void {
  if (node.type === 'code' && typeof node.value === 'string' && FROM_FILE.test(node.meta ?? '')) {
    node.value = withoutTitleClaimTags(node.value);
  }
  node.children?.forEach(strip);
}

export default function remarkSampleClaimTags() {
  return (tree: Node): void => strip(tree);
}
