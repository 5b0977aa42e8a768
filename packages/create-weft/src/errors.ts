/**
 * A problem the user can fix, worded "owner: problem; fix". The command line prints the message
 * alone, without a stack trace.
 */
export class CreateWeftError extends Error {
  override readonly name = 'CreateWeftError';
}
