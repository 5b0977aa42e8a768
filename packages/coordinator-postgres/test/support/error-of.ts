/** The error a coordinator's or a runtime's promise rejects with, for the tests to look at. */
import { WeftError } from '@weft/core';

/** Awaits `promise` and returns the WeftError it rejects with; fails on any other outcome. */
export async function errorOf(promise: Promise<unknown>): Promise<WeftError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WeftError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}
