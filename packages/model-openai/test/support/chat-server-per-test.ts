/**
 * The set-up the provider's tests share: a fresh chat server for every test, so no test sees
 * another's queued answers or recorded requests, and one chat request sent the plain way.
 */
import { TEXT_GENERATION_CAPABILITY, type ModelRequestConfig } from '@weft/core';
import { ScriptedModelProvider } from '@weft/testing';
import { afterEach, beforeEach } from 'vitest';
import type { OpenAIModelProvider } from '../../src/index.js';
import { startChatServer, type ChatServer, type Handler } from '../chat-server.js';

/**
 * Starts a chat server before each test of the calling file and closes it after. The returned
 * server stands for the running test's own; calling it outside a test throws. A test may close
 * it early (to make the address unreachable): it is then not closed twice.
 */
export function chatServerPerTest(): ChatServer {
  let current: ChatServer | undefined;
  let closed = false;
  beforeEach(async () => {
    current = await startChatServer();
    closed = false;
  });
  afterEach(async () => {
    if (current !== undefined && !closed) await current.close();
    current = undefined;
  });
  const running = (): ChatServer => {
    if (current === undefined) throw new Error('the chat server runs only while a test runs');
    return current;
  };
  return {
    get baseUrl() {
      return running().baseUrl;
    },
    get requests() {
      return running().requests;
    },
    enqueue: (...handlers: Handler[]) => running().enqueue(...handlers),
    close: async () => {
      const server = running();
      if (closed) return;
      closed = true;
      await server.close();
    },
  };
}

/** Sends one chat request, "hi" from the user, through the provider's text-generation capability. */
export async function send(provider: OpenAIModelProvider): Promise<unknown> {
  const capability = provider.capabilities.find((c) => c.id === TEXT_GENERATION_CAPABILITY);
  if (capability === undefined)
    throw new Error('the provider offers no text-generation capability');
  return capability.run({ messages: [{ role: 'user', content: 'hi' }] }, {});
}

/**
 * The planner of the tests that run the provider inside a runtime: model `planner`, which plans
 * every task as the one step `ask.answer` and lets a review, if asked, continue.
 */
export function askAnswerPlanner(): ScriptedModelProvider {
  return new ScriptedModelProvider({
    id: 'planner',
    fallback: (_messages: readonly unknown[], request: ModelRequestConfig) =>
      request.purpose === 'review'
        ? { type: 'continue' }
        : { steps: [{ pluginId: 'ask', action: 'answer' }] },
  });
}
