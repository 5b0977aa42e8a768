/** One instruction of a Dockerfile, with its stage's index (0 for the first FROM). */
export interface Instruction {
  stage: number;
  keyword: string;
  args: string;
}

/** The instructions of a Dockerfile, in order; continuation lines joined, comments dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let stage = -1;
  const joined = text.replace(/\\\n\s*/g, ' ');
  for (const line of joined.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [keyword = '', ...rest] = trimmed.split(/\s+/);
    if (keyword.toUpperCase() === 'FROM') stage += 1;
    instructions.push({ stage, keyword: keyword.toUpperCase(), args: rest.join(' ') });
  }
  return instructions;
}

/**
 * The Node.js major of the official `node:<major>-…` image every stage builds FROM; an error when
 * the stages name none or different ones.
 */
export function imageNodeMajor(text: string): number {
  const majors = new Set(
    parseDockerfile(text)
      .filter((instruction) => instruction.keyword === 'FROM')
      .map((instruction) => /^node:(\d+)-/.exec(instruction.args)?.[1]),
  );
  const [major, ...others] = [...majors];
  if (major === undefined || others.length > 0) {
    throw new Error(
      `expected every FROM to name one node:<major>-… image, got ${[...majors].join(', ')}`,
    );
  }
  return Number(major);
}
