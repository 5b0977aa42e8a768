/** What a client sends to the chat route. */
export interface ChatMessage {
  room: string;
  user: string;
  message: string;
}

/** The route's answer, as a client reads it: the reply, or the error it may show and quote. */
export type ChatAnswer =
  | {
      ok: true;
      taskId: string;
      status: string;
      reply: string;
      warning?: string;
    }
  | {
      ok: false;
      httpStatus: number;
      code: string;
      message: string;
      requestId: string;
      taskId?: string;
    };

interface ErrorBody {
  taskId?: string;
  error: {
    status: number;
    code: string;
    message: string;
    docsUrl: string;
    requestId: string;
  };
}

/**
 * Posts one chat message with the user's token and waits for the reply, for at most
 * `timeoutMs`: the route answers only when the task has ended, so choose more than the agent's
 * `taskTimeoutMs`.
 */
export async function sendChatMessage(
  baseUrl: string,
  token: string,
  body: ChatMessage,
  timeoutMs = 65_000,
): Promise<ChatAnswer> {
  const response = await fetch(new URL('/chat', baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.ok) {
    const reply = (await response.json()) as Omit<
      Extract<ChatAnswer, { ok: true }>,
      'ok'
    >;
    return { ok: true, ...reply };
  }
  const { taskId, error } = (await response.json()) as ErrorBody;
  return {
    ok: false,
    httpStatus: response.status,
    code: error.code,
    message: error.message,
    requestId: error.requestId,
    ...(taskId === undefined ? {} : { taskId }),
  };
}
