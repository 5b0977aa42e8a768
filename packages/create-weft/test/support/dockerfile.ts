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
